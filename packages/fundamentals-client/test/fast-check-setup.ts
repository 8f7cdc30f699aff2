import fc from 'fast-check';

// CI runs property tests with a fixed seed so a submission's result is reproducible; local runs
// explore new random inputs each time (fast-check prints the seed of any failure). FC_SEED
// overrides both.
const seed = process.env.FC_SEED ?? (process.env.CI ? '20261121' : undefined);
if (seed !== undefined) fc.configureGlobal({ seed: Number(seed) });
