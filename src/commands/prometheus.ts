// Attach to Prometheus...: read a deployment whose stages or replicas run on several
// hosts from the Prometheus server that scrapes them (settings stageLens.prometheus.*).
import * as vscode from 'vscode';
import type { StageLensClient } from '../client';
import type { PrometheusParams } from '../../server/protocol';

const URL_SHAPE = /^(https?:\/\/)?[^\s/]+(\/\S*)?$/;

export async function attachToPrometheus(client: StageLensClient): Promise<void> {
  const config = vscode.workspace.getConfiguration('stageLens.prometheus');
  const url = await vscode.window.showInputBox({
    title: 'Stage Lens: Prometheus server that scrapes the vLLM-Omni hosts',
    value: config.get<string>('url') ?? 'http://127.0.0.1:9090',
    prompt: 'Base URL of the Prometheus server (its HTTP query API is read, /api/v1/query)',
    validateInput: (v) => (URL_SHAPE.test(v.trim()) ? undefined : 'A URL like http://prometheus:9090'),
  });
  if (url === undefined) return;
  const deploymentLabel = (config.get<string>('deploymentLabel') ?? 'job').trim() || 'job';
  let deploymentValue = (config.get<string>('deploymentValue') ?? '').trim();
  if (deploymentValue === '') {
    const found = await client.request('stageLens/prometheusDeployments', { url: url.trim(), deploymentLabel });
    if (found.values.length === 0) {
      void vscode.window.showErrorMessage(
        `Stage Lens: Prometheus at ${url.trim()} has no vLLM-Omni or vLLM stage histograms with a "${deploymentLabel}" label. Is it scraping the servers' /metrics (served with --log-stats)? The label is set by stageLens.prometheus.deploymentLabel.`,
      );
      return;
    }
    if (found.values.length === 1) deploymentValue = found.values[0] as string;
    else {
      const picked = await vscode.window.showQuickPick(found.values, { title: `Stage Lens: which deployment (${deploymentLabel})?` });
      if (picked === undefined) return;
      deploymentValue = picked;
    }
  }
  const params: PrometheusParams = {
    url: url.trim(),
    deploymentLabel,
    deploymentValue,
    window: (config.get<string>('window') ?? '5m').trim() || '5m',
    intervalMs: config.get<number>('pollIntervalMs') ?? 5000,
  };
  const info = await client.request('stageLens/prometheus', params);
  client.setCurrent(info.id);
  if (info.lastError !== null) void vscode.window.showWarningMessage(`Stage Lens: ${info.lastError}`);
}
