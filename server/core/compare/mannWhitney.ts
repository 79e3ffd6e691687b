// Mann-Whitney U test (Wilcoxon rank-sum) of two independent samples: does one tend to
// be larger than the other? Two-sided, normal approximation with the tie correction and a
// continuity correction (as scipy.stats.mannwhitneyu(method='asymptotic')). The inputs are
// already sorted, so ranks come from one merge: O(n1 + n2).

export interface MannWhitneyResult {
  /** U of the second sample (candidate): the number of (baseline, candidate) pairs where the candidate is larger, ties counting 1/2. */
  readonly u: number;
  readonly z: number;
  readonly pValue: number;
}

/** Complementary error function: the Chebyshev fit `erfcc` of Numerical Recipes (fractional error < 1.2e-7 everywhere). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** Two-sided p-value of a standard normal z. */
export function twoSidedP(z: number): number {
  return Math.min(1, erfc(Math.abs(z) / Math.SQRT2));
}

export function mannWhitney(baseline: Float64Array, candidate: Float64Array): MannWhitneyResult | null {
  const n1 = baseline.length;
  const n2 = candidate.length;
  if (n1 === 0 || n2 === 0) return null;
  const n = n1 + n2;
  let rankSum2 = 0; // rank sum of the candidate
  let tieTerm = 0; // Σ (t³ − t) over tie groups
  let i = 0;
  let j = 0;
  let rank = 1;
  while (i < n1 || j < n2) {
    const v = j >= n2 || (i < n1 && baseline[i] <= candidate[j]) ? baseline[i] : candidate[j];
    let a = 0;
    let b = 0;
    while (i < n1 && baseline[i] === v) {
      a++;
      i++;
    }
    while (j < n2 && candidate[j] === v) {
      b++;
      j++;
    }
    const t = a + b;
    const midRank = rank + (t - 1) / 2;
    rankSum2 += b * midRank;
    if (t > 1) tieTerm += t * t * t - t;
    rank += t;
  }
  const u = rankSum2 - (n2 * (n2 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (!(variance > 0)) return { u, z: 0, pValue: 1 };
  const diff = u - mean;
  const corrected = diff === 0 ? 0 : diff - Math.sign(diff) * 0.5;
  const z = corrected / Math.sqrt(variance);
  return { u, z, pValue: twoSidedP(z) };
}
