// An input named as a URL (`http://host:8000/metrics`): the commands read files and stdin,
// never the network, so the message says how to bring a scrape in (curl into stdin) instead of
// "no such file".

/** The usage message for an input that is a URL, or null when it is not one. */
export function urlInputMessage(command: string, input: string): string | null {
  if (!/^https?:\/\//i.test(input)) return null;
  return (
    `${input} is a URL: ${command} reads a file or stdin, not the network. ` +
    `To read a /metrics scrape, pipe it in: curl -s ${input} | stage-lens ${command} -`
  );
}
