/** The seeded PRNG lives in tools/ (tools may not import test code); tests take it from here. */
export { seededRandom } from '../../tools/seeded-random.ts';
