// The Prometheus requests of the language server (registered by requestTable.ts): start a
// session that polls a Prometheus server for one deployment, and list the deployments a
// server knows (for the command's pick list). Bad parameters are refused before any
// session is created, with the reason as the JSON-RPC error message.
import type { SessionRegistry } from '../capture/sessionRegistry';
import { PrometheusCaptureSource, prometheusDescription } from '../capture/prometheusCapture';
import { checkPrometheusParams } from '../capture/prometheusSource';
import { PrometheusApi } from '../capture/prometheusApi';
import { checkDeploymentLabel, deploymentsQuery } from '../core/prometheusQuery';
import type { PrometheusDeployments, PrometheusDeploymentsParams, PrometheusParams, SessionInfo } from '../protocol';

export async function prometheusDeployments(params: PrometheusDeploymentsParams): Promise<PrometheusDeployments> {
  const problem = checkDeploymentLabel(params.deploymentLabel);
  if (problem !== null) throw new Error(`deployment label: ${problem}`);
  const api = new PrometheusApi(params.url);
  const answer = await api.query(deploymentsQuery(params.deploymentLabel));
  if (!answer.ok) throw new Error(answer.message);
  const values = new Set<string>();
  for (const s of answer.data) {
    const v = Object.prototype.hasOwnProperty.call(s.metric, params.deploymentLabel)
      ? s.metric[params.deploymentLabel]
      : undefined;
    if (v !== undefined && v !== '') values.add(v);
  }
  return { label: params.deploymentLabel, values: [...values].sort() };
}

export function startPrometheus(registry: SessionRegistry, params: PrometheusParams): SessionInfo {
  checkPrometheusParams(params);
  return registry.startWith('prometheus', prometheusDescription(params), (session) => [
    new PrometheusCaptureSource(params, session),
  ]);
}
