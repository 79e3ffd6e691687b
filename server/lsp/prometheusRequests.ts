// The Prometheus requests of the language server: start a session that polls a
// Prometheus server for one deployment, read its figures, and list the deployments a
// server knows (for the command's pick list). Bad parameters are refused before any
// session is created, with the reason as the JSON-RPC error message.
import type { Connection } from 'vscode-languageserver';
import type { SessionRegistry } from '../capture/sessionRegistry';
import { PrometheusCaptureSource, prometheusDescription, prometheusSummaryOf } from '../capture/prometheusCapture';
import { checkPrometheusParams } from '../capture/prometheusSource';
import { PrometheusApi } from '../capture/prometheusApi';
import { checkDeploymentLabel, deploymentsQuery } from '../core/promql';
import type { PrometheusDeployments, PrometheusDeploymentsParams } from '../protocol';
import { handle } from './typedRequests';

export async function prometheusDeployments(params: PrometheusDeploymentsParams): Promise<PrometheusDeployments> {
  const problem = checkDeploymentLabel(params.deploymentLabel);
  if (problem !== null) throw new Error(`deployment label: ${problem}`);
  const api = new PrometheusApi(params.url);
  const answer = await api.query(deploymentsQuery(params.deploymentLabel));
  if (!answer.ok) throw new Error(answer.message);
  const values = new Set<string>();
  for (const s of answer.data) {
    const v = Object.prototype.hasOwnProperty.call(s.metric, params.deploymentLabel) ? s.metric[params.deploymentLabel] : undefined;
    if (v !== undefined && v !== '') values.add(v);
  }
  return { label: params.deploymentLabel, values: [...values].sort() };
}

export function registerPrometheusRequests(connection: Connection, registry: SessionRegistry): void {
  handle(connection, 'stageLens/prometheus', (p) => {
    checkPrometheusParams(p);
    return registry.startWith('prometheus', prometheusDescription(p), (session) => [new PrometheusCaptureSource(p, session)]);
  });
  handle(connection, 'stageLens/prometheusSummary', async (p) => prometheusSummaryOf(await registry.open(p.sessionId)));
  handle(connection, 'stageLens/prometheusDeployments', (p) => prometheusDeployments(p));
}
