// The specmodel command line that prints the state on screen (generator/cli_command.py writes
// the build's; the rule and the options are the manifest's "cli"): a flag where the state is not
// the site's default, and α always (evaluate's own default α is the drafter's typical one).
export function cliCommand(manifest, state) {
  const { command, options, always } = manifest.cli;
  const parts = [command];
  for (const { name } of manifest.state) {
    if (always.includes(name) || state[name] !== manifest.defaults[name]) parts.push(`${options[name]} ${state[name]}`);
  }
  return parts.join(" ");
}
