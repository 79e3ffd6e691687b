// Attach to Prometheus...: read a deployment whose stages or replicas run on several
// hosts from the Prometheus server that scrapes them (settings stageLens.prometheus.*).
import * as vscode from 'vscode';
import { showError, showWarning } from '../notify';
import { showPick } from '../quickPick';
import type { StageLensClient } from '../client';
import type { PrometheusParams } from '../../server/protocol';
import type { RevealViews } from './attach';
import { prometheusUrlQuestion } from '../launchConsent';
import { prometheusSettings, workspaceValue } from '../settings';
import { checkHttpUrl } from '../settingValues';

/**
 * The URL offered in the input box. In an untrusted workspace VS Code leaves the workspace's
 * stageLens.prometheus.url out (a restricted setting); it is offered only if the user says so.
 */
async function offeredUrl(ownUrl: string): Promise<string | null> {
  const fromWorkspace = workspaceValue('prometheus.url');
  const question = prometheusUrlQuestion({
    trusted: vscode.workspace.isTrusted,
    workspaceUrl: typeof fromWorkspace === 'string' ? fromWorkspace : null,
    ownUrl,
  });
  if (question === null) return ownUrl;
  const buttons = question.withWorkspace === null ? [question.launch] : [question.launch, question.withWorkspace];
  const choice = await showWarning(question.message, { modal: true, detail: question.detail }, ...buttons);
  if (choice === undefined) return null;
  return choice === question.withWorkspace ? checkHttpUrl('stageLens.prometheus.url', fromWorkspace) : ownUrl;
}

export async function attachToPrometheus(client: StageLensClient, reveal: RevealViews): Promise<void> {
  const settings = prometheusSettings();
  const offered = await offeredUrl(settings.url);
  if (offered === null) return;
  const url = await vscode.window.showInputBox({
    title: 'Stage Lens: Prometheus server that scrapes the vLLM-Omni hosts',
    value: offered,
    prompt: 'Base URL of the Prometheus server (its HTTP query API is read, /api/v1/query)',
    validateInput: (v) => {
      try {
        checkHttpUrl('URL', v);
        return undefined;
      } catch {
        return 'A URL like http://prometheus:9090';
      }
    },
  });
  if (url === undefined) return;
  const deploymentLabel = settings.deploymentLabel;
  let deploymentValue = settings.deploymentValue;
  if (deploymentValue === '') {
    const found = await client.request('stageLens/prometheusDeployments', { url: url.trim(), deploymentLabel });
    if (found.values.length === 0) {
      void showError(
        `Stage Lens: Prometheus at ${url.trim()} has no vLLM-Omni or vLLM stage histograms with a "${deploymentLabel}" label. Is it scraping the servers' /metrics (served with --log-stats)? The label is set by stageLens.prometheus.deploymentLabel.`,
      );
      return;
    }
    if (found.values.length === 1) deploymentValue = found.values[0];
    else {
      const picked = await showPick(found.values, {
        title: `Stage Lens: which deployment (${deploymentLabel})?`,
      });
      if (picked === undefined) return;
      deploymentValue = picked;
    }
  }
  const params: PrometheusParams = {
    url: url.trim(),
    deploymentLabel,
    deploymentValue,
    window: settings.window,
    intervalMs: settings.pollIntervalMs,
  };
  const info = await client.request('stageLens/prometheus', params);
  client.setCurrent(info.id);
  if (info.lastError !== null) void showWarning(`Stage Lens: ${info.lastError}`);
  await reveal();
}
