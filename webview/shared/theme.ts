// Colours for canvas code, read from VS Code's CSS variables so light, dark and high
// contrast themes work. VS Code changes the body class (vscode-light/-dark/-high-contrast)
// and the variables on theme change; onThemeChange redraws then.
import type { TimelinePhase } from './labels';

export interface Palette {
  readonly foreground: string;
  readonly muted: string;
  readonly background: string;
  readonly grid: string;
  readonly focus: string;
  readonly highContrast: boolean;
  readonly phase: Readonly<Record<TimelinePhase, string>>;
  readonly red: string;
  /** Transfer hand-offs between stages. */
  readonly handoff: string;
  /** The decode colour a prefill+decode bar fades into. */
  readonly decodeEnd: string;
  readonly series: readonly string[];
  readonly font: string;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const v = style.getPropertyValue(name).trim();
  return v === '' ? fallback : v;
}

export function readPalette(): Palette {
  const style = getComputedStyle(document.body);
  const fg = cssVar(style, '--vscode-foreground', '#cccccc');
  const red = cssVar(style, '--vscode-charts-red', '#f14c4c');
  const blue = cssVar(style, '--vscode-charts-blue', '#3794ff');
  const yellow = cssVar(style, '--vscode-charts-yellow', '#cca700');
  const orange = cssVar(style, '--vscode-charts-orange', '#d18616');
  const green = cssVar(style, '--vscode-charts-green', '#89d185');
  const purple = cssVar(style, '--vscode-charts-purple', '#b180d7');
  const family = cssVar(style, '--vscode-font-family', 'sans-serif');
  const size = cssVar(style, '--vscode-font-size', '12px');
  const highContrast =
    document.body.classList.contains('vscode-high-contrast') ||
    document.body.classList.contains('vscode-high-contrast-light');
  return {
    foreground: fg,
    muted: cssVar(style, '--vscode-descriptionForeground', fg),
    background: cssVar(style, '--vscode-editor-background', '#1e1e1e'),
    grid: cssVar(style, '--vscode-editorWidget-border', cssVar(style, '--vscode-panel-border', '#80808059')),
    focus: cssVar(style, '--vscode-focusBorder', blue),
    highContrast,
    // Ready queued is the page's own teal (base.css): the charts' yellow is queued's orange in light themes.
    // prefill+decode (one output) is drawn as a blue-to-green gradient; this is its solid fallback.
    phase: {
      inputWait: purple,
      readyQueued: cssVar(style, '--sl-ready-queued', '#26a69a'),
      queued: orange,
      prefill: blue,
      decode: green,
      prefillDecode: blue,
      stage: fg,
    },
    red,
    decodeEnd: green,
    handoff: fg,
    series: [blue, orange, green, purple, yellow, red],
    font: `${size} ${family}`,
  };
}

export function onThemeChange(callback: () => void): void {
  const observer = new MutationObserver(() => callback());
  observer.observe(document.body, { attributes: true, attributeFilter: ['class', 'data-vscode-theme-kind', 'style'] });
}
