// Compare Sessions panel: two runs side by side per stage and phase, with significance
// drawn (tint, ▲/▼, CI bar around 0) and the findings that appeared or disappeared. The
// host sends one comparison; the page reports back what it drew.
import '../shared/base.css';
import './style.css';
import type { CompareHostToWebview, CompareResult, CompareWebviewToHost } from '../../server/protocol';
import { h, setChildren, setText } from '../shared/dom';
import { compareHeading } from './header';
import { renderComparison, titleChildren } from './view';

interface VsCodeApi {
  postMessage(message: CompareWebviewToHost): void;
}
declare function acquireVsCodeApi(): VsCodeApi;
const vscode = acquireVsCodeApi();

let result: CompareResult | null = null;

const title = h('h2', { className: 'title', testId: 'compare-title', text: 'Stage Lens: Compare' });
const status = h('p', { className: 'status muted', testId: 'compare-status', text: 'Waiting for the comparison…' });
const errorBanner = h('div', { className: 'error-banner', role: 'alert', testId: 'error' });
errorBanner.hidden = true;
const onlyBeyond = h('input', { attrs: { type: 'checkbox' }, testId: 'only-beyond-noise' });
const toolbar = h('label', { className: 'toolbar' }, onlyBeyond, ' only rows beyond noise');
toolbar.hidden = true;
const content = h('div', { className: 'content', testId: 'compare-content' });
document.body.append(
  h('main', { className: 'compare-panel' }, h('header', {}, title, toolbar), status, errorBanner, content),
);

function draw(): void {
  if (result === null) return;
  const heading = compareHeading({ baseline: result.baselineRun, candidate: result.candidateRun }, result.report);
  setChildren(title, titleChildren(heading));
  try {
    const { element, rendered } = renderComparison(result.report, heading, onlyBeyond.checked);
    content.replaceChildren(element);
    vscode.postMessage({ type: 'rendered', rendered });
  } catch (err) {
    // Said on the page and to the host (which logs it), never a blank panel.
    const message = err instanceof Error ? err.message : String(err);
    setText(errorBanner, `Cannot draw the comparison: ${message}`);
    errorBanner.hidden = false;
    vscode.postMessage({ type: 'drawFailed', message });
  }
}

onlyBeyond.addEventListener('change', draw);

window.addEventListener('message', (ev: MessageEvent<unknown>) => {
  const m = ev.data as CompareHostToWebview;
  if (typeof m !== 'object' || m === null || typeof m.type !== 'string') return;
  switch (m.type) {
    case 'loading':
      result = null;
      errorBanner.hidden = true;
      toolbar.hidden = true;
      content.replaceChildren();
      setChildren(title, titleChildren(compareHeading({ baseline: m.baselineRun, candidate: m.candidateRun }, null)));
      setText(status, 'Reading both runs…');
      status.hidden = false;
      break;
    case 'comparison':
      result = m.result;
      errorBanner.hidden = true;
      status.hidden = true;
      toolbar.hidden = m.result.report.metrics.length === 0;
      draw();
      break;
    case 'error':
      status.hidden = true;
      setText(errorBanner, m.message);
      errorBanner.hidden = false;
      break;
  }
});

vscode.postMessage({ type: 'ready' });
