/**
 * Version of the scoring methodology (issue 39), carried by every evaluation as
 * `methodologyVersion`. It changes whenever a formula, threshold or rule of the scoring changes,
 * so that an evaluation can be recomputed when its version is older and a change of score can be
 * told apart from a change of method. What changed in each version: the README ("Methodology
 * versions").
 */
export const METHODOLOGY_VERSION = '5';
