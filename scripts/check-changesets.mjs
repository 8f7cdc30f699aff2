// Checks that the pending changesets make a release plan, as `changeset version` will need it:
// every changeset names packages of this workspace, with bump types the configuration accepts
// (an app on the `ignore` list beside a package once made 17 of them fail). Reads the files only:
// no git, no network. Prints the plan's size; exits 1 with changesets' own message otherwise.
import getReleasePlan from '@changesets/get-release-plan';

const cwd = new URL('..', import.meta.url).pathname;
try {
  const plan = await getReleasePlan(cwd);
  const bumped = plan.releases.filter((r) => r.type !== 'none').length;
  console.log(`changesets: ${plan.changesets.length} pending, ${bumped} packages to version`);
} catch (error) {
  console.error(`changesets: no release plan: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
