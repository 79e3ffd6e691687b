// The servers of a session whose log merges several (kubectl logs --prefix, docker compose logs,
// stern), where a view's numbers are: the pick of one server, whose numbers are then the requests
// `stage-lens analyze --server <name>` keeps. All servers is the default: the view shows every
// request it showed before. Server names are the log's text: they reach the page as text only.
import type { SessionServers } from '../../server/protocol';
import { allServersLabel, serverPickLabel, viewServerNote } from '../../server/shared';
import { h, setText } from './dom';

/** The All servers option's value: a server's name is never empty (the host rejects an empty one). */
const ALL_SERVERS = '';

export class ServerPicker {
  readonly el: HTMLElement;
  private readonly note = h('p', { className: 'servers-note', testId: 'server-note' });
  private readonly select = h('select', { testId: 'server-pick', attrs: { 'aria-label': 'Server' } });
  private options = '';

  /** `pick`: the user chose a server (null: every server). */
  constructor(pick: (server: string | null) => void) {
    this.select.addEventListener('change', () => pick(this.select.value === ALL_SERVERS ? null : this.select.value));
    this.el = h(
      'div',
      { className: 'servers', testId: 'servers', role: 'group', attrs: { 'aria-label': 'Servers of the merged log' } },
      h('label', { className: 'server-pick' }, h('span', { text: 'Server' }), this.select),
      this.note,
    );
    this.el.hidden = true;
  }

  /** The session's servers (null: fewer than two with requests) and the server picked (null: all). */
  update(servers: SessionServers | null | undefined, selected: string | null): void {
    this.el.hidden = servers === null || servers === undefined;
    if (servers === null || servers === undefined) return;
    const key = JSON.stringify([servers.servers, servers.untaggedRequests]);
    if (key !== this.options) {
      this.options = key;
      this.select.replaceChildren(
        h('option', {
          text: allServersLabel(servers.servers, servers.untaggedRequests),
          attrs: { value: ALL_SERVERS },
        }),
        ...servers.servers.map((s) => h('option', { text: serverPickLabel(s), attrs: { value: s.server } })),
      );
    }
    this.select.value = selected ?? ALL_SERVERS;
    // What the numbers shown are over: the summary's server (a pick is shown once its numbers come).
    const picked = servers.selected;
    setText(this.note, picked === null ? '' : viewServerNote(picked, servers.servers, servers.untaggedRequests));
    this.note.hidden = this.note.textContent === '';
  }
}
