// The specmodel command line that prints the state on screen (generator/cli_command.py writes
// the build's; the rule and the options are the manifest's "cli"): a flag where the state is not
// the site's default, and α always (evaluate's own default α is the drafter's typical one);
// for a state that does not fit in memory, the flag without which evaluate refuses it.
export function cliCommand(manifest, state, fits = true) {
  const { command, options, always } = manifest.cli;
  const parts = [command];
  for (const { name } of manifest.state) {
    if (always.includes(name) || state[name] !== manifest.defaults[name]) parts.push(`${options[name]} ${state[name]}`);
  }
  if (!fits) parts.push(manifest.cli.ignore_memory);
  return parts.join(" ");
}
