"""Labelled metric-number set (issue 15): real public text, hand-checked gold spans.

Each example is ``(origin, text, gold)``; ``gold`` lists the exact number substrings the
recogniser should protect, in order of appearance. Origins: ``pypi:<wheel>:<path>`` = a docstring,
comment or README (METADATA) of that PyPI wheel (timm, peft, trl, sentence-transformers,
accelerate, optuna, lightgbm, statsmodels, pingouin, astropy); ``corpus:`` = /work/shared/corpus;
``deb:<path>`` = /usr/share/doc of this machine's Debian packages (changelogs, copyright files:
the negatives with versions, dates and years). Sentences were cut at sentence ends from
paragraphs (line breaks joined); the pool was drawn at random from sentences with a candidate form
(percentages, ranges, ±, p-values, setting values) and, for negatives, from sentences with a
version, section number, date or year.

Span policy (docs/protection.md): a value and its unit are one span (``20-45%``, ``12.31 ± 0.40``,
``p = 0.31``); a setting's name stays outside (``batch size 32`` → ``32``; ``10 epochs`` → ``10``);
a bare decimal or colon ratio counts only within 50 characters of a metric word (E6). The gold is
what that policy marks, including the forms the recogniser misses.

Half of ``EXAMPLES`` is held out (:func:`split`: by a hash of the text). Disclosure: labelling
showed three generic conventions missing in the held-out half (identifier names such as
``weight_decay=1e-4``, quoted values such as ````1e-3````, ``p = 2^255`` being math), and they were
added afterwards; that half is therefore not clean. ``FRESH_HELD_OUT`` was drawn and labelled after
the last change to the recogniser, from wheels not used before (ultralytics, lightning, xgboost,
diffusers, evaluate, setfit, flair, bitsandbytes, torchmetrics), and never used to tune.

Protocol revision (issue 15, second pass; the protocol is written out in ``number_recall_set.py``):
settings written as code are protected too — any identifier of two characters or more assigned a
number (``imgsz=640``, ``seed: int = 42``, ``--depth=0``, ``"box-rows"="18"``), and a documented default
(``Defaults to -1``, ``The default is 0.05``). The gold of both sets was brought to the revised
protocol by a text search for those forms (``default``, ``name=<digit>``, ``name: <digit>``,
``--flag <digit>``), not from the recogniser's output: 21 examples of ``EXAMPLES`` and 16 of
``FRESH_HELD_OUT`` gained spans (all additions; no span was removed). ``FRESH_HELD_OUT``'s tuning
half (``split(FRESH_HELD_OUT)[0]``) was studied for the revision; its held-out half was not.
"""

import hashlib

EXAMPLES = [
    (
        "pypi:pingouin-0.7.0:pingouin/plotting.py",
        "It is common to compute 95% limits of agreement for each comparison (average difference ± 1.96 standard deviation of the difference), which tells us how far apart measurements by 2 methods were more likely to be for most individuals.",
        ["95%", "1.96"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/libqsturng/qsturng_.py",
        "If p < .85 apply only the ordinate transformation if p > .85 apply the ordinate and the abcissa transformation In both cases apply quadratic interpolation if p > 0.85: p_t = _ptransform(p) p0_t = _ptransform(p0) p1_t = _ptransform(p1) p2_t = _ptransform(p2)",
        ["p < .85", "p > .85", "p > 0.85"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sentence_transformer/losses/margin_mse.py",
        "With MultipleNegativesRankingLoss, with a batch size of 64, we compare one query against 128 documents.",
        ["64", "128"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/cross_encoder/losses/cached_multiple_negatives_ranking.py",
        "The gradient caching will sacrifice around 20% computation time according to the paper.",
        ["20%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/regression.py",
        "The :math:`R^2` of the model is 0.46 and the adjusted :math:`R^2` is 0.45, which means that our model roughly explains ~45% of the total variance in the tip amount.",
        ["0.46", "0.45", "45%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/libqsturng/qsturng_.py",
        "interpolate p (v should be in table) if .5 < p < .75 use linear interpolation in q if p > .75 use quadratic interpolation in log(y + r/v) by -1. / (1. + 1.5 * _phi((1. + p)/2.))",
        ["p < .75", "p > .75"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/bayesian.py",
        "Thus, whereas a frequentist hypothesis test would yield significant results at the 5% significance level, the Bayes factor indicates preference of the null hypothesis to the alternative hypothesis that we know nothing about p.",
        ["5%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/adfvalues.py",
        "These are the new estimates from MacKinnon 2010 the first axis is N -1 the second axis is 1 %, 5 %, 10 % the last axis is the coefficients",
        ["1 %", "5 %", "10 %"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sentence_transformer/losses/cached_multiple_negatives_symmetric_ranking.py",
        "In short: ``scale = 1 / temperature``, so ``scale=20.0`` is equivalent to ``temperature=0.05``. similarity_fct: similarity function between embeddings.",
        ["20.0", "0.05"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/stats/funcs.py",
        'As a toy example, we generate 100 data points with randomly selected magnitudes between 20 and 30 and "observe" them with a known detection function (here, the error function, with 50% detection probability at magnitude 25):',
        ["50%"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/multi_vector_encoder/losses/distill_kl_div.py",
        "The loss is multiplied by the student temperature squared, which keeps the gradient magnitude comparable across temperatures (Hinton et al., 2015) in the regime that paper covers, a shared temperature at or above ``1.0``.",
        [],
    ),
    (
        "deb:nodejs/api/fs.md",
        "The `fs.watch` API is not 100% consistent across platforms, and is unavailable in some situations.",
        ["100%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/adfvalues.py",
        "Returns ------- ndarray The critical values at the 1%, 5%, and 10% levels.",
        ["1%", "5%", "10%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/reliability.py",
        "For more details, please refer to the :py:meth:`pandas.DataFrame.cov` method. ci : float Confidence interval (.95 = 95%)",
        ["95%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_delta_method.py",
        "Default is alpha = 0.05 which implies a confidence level of 95%. title : str, optional Title for the params table.",
        ["0.05", "95%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "Starts with maxlag and drops a lag until the t-statistic on the last lag length is significant using a 5%-sized test. return_results : bool, optional For future compatibility, currently only tuple available.",
        ["5%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/reliability.py",
        "95% confidence intervals are calculated using Feldt's method [2]_:",
        ["95%"],
    ),
    (
        "pypi:timm-1.0.31:timm/optim/laprop.py",
        "func( params, grads, exp_avgs, exp_avg_sqs, step_sizes, bias_corrections2, lr=lr, beta1=beta1, beta2=beta2, eps=eps, weight_decay=weight_decay, max_lr=max_lr, caution=caution, )",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/flrw/base.py",
        "Tcmb0 : float or scalar quantity-like ['temperature'], optional Temperature of the CMB z=0.",
        [],
    ),
    (
        "deb:git/RelNotes/1.5.2.txt",
        "Depending on the project, it was reported that this reduces the resulting pack file by 10% or so.",
        ["10%"],
    ),
    (
        "corpus:md/pl_learnprompting_chain_of_thought.md",
        'Ponieważ opcja 2 zajmuje 890 minut, a opcja 1 zajmuje 1040 minut, opcja 2 jest szybsza." max-tokens="256" box-rows="18" model-temp="0" top-p="0"></div>',
        ["256", "18", "0", "0"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/extern/ply/yacc.py",
        "Compute the LR(0) closure operation on I, where I is a set of LR(0) items.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/sandbox/nonparametric/kernels.py",
        "Parameters ---------- density : array_lie pdf of the kernel density nobs : int number of observations used in the KDE estimation alpha : float confidence level for the confidence interval, the default alpha=0.05 corresponds to a 95% confidence interval.",
        ["0.05", "95%"],
    ),
    (
        "pypi:peft-0.21.2:peft/tuners/shadow/model.py",
        'Causal-LM ShadowPEFT mirrors the HF decoder class; Diffusers transformers do not share that constructor/config contract, so for those architectures we seed `s^(0)` with a small residual MLP over the entry hidden states. """',
        [],
    ),
    ("pypi:statsmodels-0.15.0:statsmodels/genmod/families/family.py", "Notes ----- When :math:`p = 1`,", ["p = 1"]),
    (
        "pypi:timm-1.0.31:timm/optim/_optim_factory.py",
        "```python optimizer = create_optimizer_v2(model, 'sgd', lr=0.1, momentum=0.9, weight_decay=1e-4) ```",
        ["0.1", "0.9", "1e-4"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/base/_prediction_inference.py",
        "Parameters ---------- alpha : float, optional The significance level for the confidence interval. ie., The default `alpha` = .05 returns a 95% confidence interval.",
        [".05", "95%"],
    ),
    (
        "deb:nodejs/contributing/writing-and-running-benchmarks.md",
        "If three stars (`***`) is considered the risk is 0.1%.",
        ["0.1%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/bayesian.py",
        "The binomial test rejects the null hypothesis that the coin is fair at the 5% significance level (p=0.04).",
        ["5%", "p=0.04"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/traits/tcmb.py",
        'Tcmb0: Quantity """Temperature of the CMB at z=0."""',
        [],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/regression.py",
        "Body mass is a significant predictor of sex (p<0.001).",
        ["p<0.001"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_leybourne.py",
        "Returns ------- pvalue : float The interpolated p-value cvdict : dict Critical values for the test statistic at the 1%, 5%, and 10% levels",
        ["1%", "5%", "10%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/regression.py",
        "For example, a student who studies 2 hours has a probability of passing the exam of 25%:",
        ["25%"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sparse_encoder/evaluation/sparse_reranking.py",
        'Now evaluate using only the documents from the 1000 samples reranking_evaluator = SparseRerankingEvaluator( samples=samples, name="ms-marco-dev-small", show_progress_bar=True, batch_size=32, )',
        ["1000", "32"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sentence_transformer/evaluation/binary_classification.py",
        "Defaults to -1. steps (int, optional): The number of steps.",
        ["-1"],
    ),
    ("deb:cscope/TODO", "Inline editing on Input fields ( ??^B/^F ) ^X^C to quit ( ^Q ??) Pagdwn/PageUp/+/-", []),
    (
        "pypi:astropy-8.0.2:astropy/units/function/logarithmic.py",
        "We wish to do:   ±lu_1 + ±lu_2  -> lu_f          (lu=logarithmic unit) and     pu_1^(±1) * pu_2^(±1) -> pu_f  (pu=physical unit)",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/io/votable/exceptions.py",
        "As an example, the following definition declares a table cell which may contain a set of up to 10 images, each of 64×64 bytes::",
        ["10", "64×64"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/robust_compare.py",
        "If `proportiontocut` = 0.1, slices off 'leftmost' and 'rightmost' 10% of scores.",
        ["0.1", "10%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/coint_tables.py",
        "Returns ------- ndarray Array of critical values for the trace statistic at the 90%, 95%, and 99% levels.",
        ["90%", "95%", "99%"],
    ),
    (
        "deb:nodejs/api/all.html",
        "<p>The <code>fs.watch</code> API is not 100% consistent across platforms, and is unavailable in some situations.</p> <p>On Windows, no events will be emitted if the watched directory is moved or renamed.",
        ["100%"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/stats/jackknife.py",
        "Obtain Jackknife estimate for the mean, its bias, its standard error, and its 95% confidence interval:",
        ["95%"],
    ),
    ("deb:git/contrib/fast-import/git-p4.README", '@python "%~d0%~p0git-p4.py" %*', []),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/base/sampler.py",
        "Every batch is guaranteed to contain multiple distinct labels, each with at least 2 samples.",
        ["2"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sparse_encoder/losses/sparse_margin_mse.py",
        "With SparseMultipleNegativesRankingLoss, with a batch size of 64, we compare one query against 128 documents.",
        ["64", "128"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/time/formats.py",
        'class TimeEpochDateString(TimeString): """ Base class to support string Besselian and Julian epoch dates such as \'B1950.0\' or \'J2000.0\' respectively. """',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/functional.py",
        "In analog to scalar data, the functional curve with highest band depth is called the median curve, and the band made up from the first N/2 of N curves is the 50% central region.",
        ["50%"],
    ),
    (
        "deb:libexpat1-dev/expat.html/index.html",
        "But you only need to learn four functions in order to do 90% of what you'll want to do with it:</p>",
        ["90%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/effsize.py",
        'Must be "r" (correlation) or "cohen" (Cohen d or Hedges g). confidence : float Confidence level (0.95 = 95%) decimals : int Number of rounded decimals. alternative : string Defines the alternative hypothesis, or tail for the correlation coefficient.',
        ["95%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/plotting.py",
        "If the differences within mean ± 1.96 SD are not clinically important, the two methods may be used interchangeably.",
        ["1.96"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/agreement.py",
        "If `md` is the mean of the differences, and `sd` is the standard deviation of those differences, then the limits of agreement that will be plotted are md +/- sd_limit * sd.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/iolib/stata_summary_examples.py",
        "Err.      z    P>|z|     [95% Conf.",
        ["95%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/filters/hamilton_filter.py",
        "With ``h = 8`` and ``p = 4`` (the quarterly defaults), the first ``11`` observations of the output are ``NaN``.",
        ["p = 4"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sentence_transformer/losses/batch_hard_soft_margin_triplet.py",
        "Your dataset must contain at least 2 examples per labels class. 3.",
        ["2"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/imputation/bayes_mi.py",
        "Data is generated assuming 10% is missing at random.",
        ["10%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/coint_tables.py",
        "Returns ------- ndarray Array of critical values for the maximum eigenvalue statistic at the 90%, 95%, and 99% levels.",
        ["90%", "95%", "99%"],
    ),
    (
        "pypi:timm-1.0.31:timm/models/maxxvit.py",
        "The models without extra prefix / suffix' (coatnet_0_224, maxvit_tiny_224, etc), are intended to match paper, BUT, without any official pretrained weights it's difficult to confirm a 100% match.",
        ["100%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/reliability.py",
        "A significant p-value suggests that rater means differ, indicating non-negligible bias. * ``'df1'``, ``'df2'``: degrees of freedom for the F-test. * ``'CI95'``: 95% confidence interval for the ICC.",
        ["95%"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sentence_transformer/evaluation/reranking.py",
        "Defaults to -1. steps (int, optional): The current step number.",
        ["-1"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/extern/ply/yacc.py",
        "The input C is the set of LR(0) items. -----------------------------------------------------------------------------",
        [],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/base/modules/router.py",
        "For example, if you want to use a learning rate of ``1e-3`` for an SparseStaticEmbedding module and ``2e-5`` for the rest of the model, you can do this::",
        ["1e-3", "2e-5"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/functional.py",
        "Median curve. - 'hdr_50', list of tuple of float. 50% quantile band. [sup, inf] curves. - 'hdr_90', list of tuple of float. 90% quantile band. [sup, inf] curves. - 'extra_quantiles', list of tuple of float.",
        ["50%", "90%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/effsize.py",
        "In other words, there are ~29% of pairs where ``x`` is higher than ``y``, which means that there are ~71% of pairs where ``x`` is *lower* than ``y``.",
        ["29%", "71%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/regression.py",
        "The party size is also a significant predictor of tip (T=2.26, p=0.02).",
        ["2.26", "p=0.02"],
    ),
    ("deb:libxmlsec1-dev/examples/mywin32make.bat", "nmake -f Makefile.w32 %1 %2 %3", []),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/base/sampler.py",
        "Labels take turns emitting 2 samples each.",
        ["2"],
    ),
    (
        "corpus:md/conv_arithmetic_readme.md",
        '<table style="width:25%"; table-layout:fixed;> <tr> <td><img width="150px" src="gif/dilation.gif"></td> </tr> <tr> <td>No padding, no stride, dilation</td> </tr> </table>',
        ["25%", "150px"],
    ),
    ("pypi:peft-0.21.2:peft/tuners/adamss/config.py", 'Default is 0.1 (10% of max). """', ["0.1", "10%"]),
    (
        "pypi:timm-1.0.31:timm/optim/_optim_factory.py",
        "```python optimizer = create_optimizer_v2(model, 'adam', lr=1e-3, layer_decay=0.7) ```",
        ["1e-3", "0.7"],
    ),
    (
        "pypi:timm-1.0.31:timm/scheduler/wsd_lr.py",
        "The stable function is evaluated on the time since the end of warmup (`t_s`) and equals 1 at `t_s = 0`, so the warmup always hands off at the base lr.",
        ["0"],
    ),
    (
        "deb:nodejs/api/url.md",
        "new URL('file:///你好.txt').pathname;      // Incorrect: /%E4%BD%A0%E5%A5%BD.txt fileURLToPath('file:///你好.txt');         // Correct:   /你好.txt (POSIX)",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/nonparametric.py",
        "A relevant effect for the treatment under investigation is considered to be a 50% reduction in the number of seizures.",
        ["50%"],
    ),
    (
        "deb:nettle-dev/nettle.html",
        "<p>Curve25519 is an elliptic curve of Montgomery type, <em>y^2 = x^3 + 486662 x^2 + x (mod p)</em>, with <em>p = 2^255 - 19</em>.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/tools.py",
        "At the default tuning parameter, the relative efficiency is 95%.",
        ["95%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "Only returned when ``store=False``; when ``store=True`` the lag is instead available as ``resstore.lags``. crit : dict The critical values at 10%, 5%, 2.5% and 1%.",
        ["10%", "5%", "2.5%", "1%"],
    ),
    (
        "deb:openjdk-17-jre-headless/README.Debian",
        "It is not yet 100% with the closed source plugin, but much improved to the former GCJPlugin.",
        ["100%"],
    ),
    (
        "pypi:timm-1.0.31:timm/optim/madgrad.py",
        "On sparse problems both weight_decay and momentum should be set to 0.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/functional.py",
        "Compute contour lines for quantiles 90%, 50% and `alpha` % 3.",
        ["90%", "50%"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sparse_encoder/losses/sparse_multiple_negatives_ranking.py",
        "In short: scale = 1 / temperature, so scale=20.0 is equivalent to temperature=0.05.",
        ["20.0", "0.05"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sentence_transformer/losses/distill_kl_div.py",
        "Note: in the v5.0.1 release, the default temperature was changed from 2.0 to 1.0. student_temperature: Student-side override of ``temperature``.",
        ["2.0", "1.0"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/oaxaca.py",
        "reimers - This type uses a linear combination of the two models with both parameters being 50% of the non-discriminatory model.",
        ["50%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/effsize.py",
        "Bootstrapped 95% BCa confidence interval of a Pearson correlation",
        ["95%"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/modeling/functional_models.py",
        "Default is chosen to include most (99%) of the area under the curve, while still showing the central feature of interest.",
        ["99%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/agreement.py",
        "The default of 1.96 will produce 95% confidence intervals for the means of the differences.",
        ["1.96", "95%"],
    ),
    (
        "corpus:md/evaluate_mauve_readme.md",
        "It is a good idea to use at least 1000 samples for each distribution to compute MAUVE (the original paper uses 5000).",
        ["1000"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/visualization/lupton_rgb.py",
        "Parameters ---------- image1 : ndarray or array-like The image to analyse, or a list of 3 images to be converted to an intensity image.",
        ["3"],
    ),
    (
        "pypi:trl-1.16.0:trl/experimental/iw_opd/iw_opd_trainer.py",
        "The support set depends on beta: beta=0 (forward KL) uses teacher's top-k, beta=1 (reverse KL) uses student's top-k, 0<beta<1 (JSD) uses the union of both.",
        ["0", "1"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/time/formats.py",
        "The difference between TAI and UTC at that epoch was 8.000082 sec. - On the day of a positive leap second the difference between ``unix`` and ``unix_tai`` times increases linearly through the day by 1.0.",
        ["8.000082"],
    ),
    (
        "corpus:md/evaluate_cuad_readme.md",
        "`prec_at_90_recall`: The fraction of true examples among the predicted examples at a recall rate of 90%.",
        ["90%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/correlation_tools.py",
        "The default value of ``minabs`` is thus equal to 1 standard error, which will set to zero approximately 68% of the estimated correlation coefficients for which the population value is zero.",
        ["68%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/vector_ar/irf.py",
        "The default is 0.05, giving a 95% confidence interval. rng : int, array_like of int, numpy.random.Generator, or numpy.random.RandomState, optional Source of random numbers used for the Monte Carlo replications.",
        ["0.05", "95%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/discrete/count_model.py",
        'Default is p=2. """ + base._missing_param_doc, )',
        ["p=2"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/plotting.py",
        "The 95% limits of agreement can be unreliable estimates of the population parameters especially for small sample sizes so, when comparing methods or assessing repeatability, it is important to calculate confidence intervals for the 95% limits of agreement.",
        ["95%", "95%"],
    ),
    (
        "deb:nodejs/api/cluster.md",
        "Loads have been observed where over 70% of all connections ended up in just two processes, out of a total of eight.",
        ["70%"],
    ),
    (
        "pypi:optuna-5.0.0:optuna/importance/_ped_anova/evaluator.py",
        "For example, ``target_quantile=0.1`` means that the importances give the information of which parameters were important to achieve the top-10% performance during optimization.",
        ["0.1", "10%"],
    ),
    (
        "corpus:md/gsm8k_readme.md",
        "We generated each Socratic subquestion by conditioning on each ground truth (contractor-provided) step in a solution, using a model specifically finetuned for this task (on around 800 examples).",
        ["800"],
    ),
    (
        "deb:nodejs/contributing/technical-priorities.md",
        "These benefits are important to a large number of Node.js developers (maybe 50%).",
        ["50%"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sentence_transformer/losses/cached_multiple_negatives_ranking.py",
        "Gradient caching will sacrifice around 20% computation time according to the paper.",
        ["20%"],
    ),
    (
        "deb:libmd0/copyright",
        "Files: include/sha1.h src/sha1.c Copyright: Steve Reid <steve@edmweb.com> License: public-domain-sha1 100% Public Domain",
        ["100%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/functional.py",
        "Plotted are then the median curve, the envelope of the 50% central region, the maximum non-outlying envelope and the outlier curves.",
        ["50%"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/io/fits/diff.py",
        "TODO: It might be good if there was also a threshold option for percentage of different pixels: For example ignore if only 1% of the pixels are different within some threshold.",
        ["1%"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sentence_transformer/losses/cached_multiple_negatives_ranking.py",
        "In short: ``scale = 1 / temperature``, so ``scale=20.0`` is equivalent to ``temperature=0.05``.",
        ["20.0", "0.05"],
    ),
    (
        "corpus:md/pl_learnprompting_ensembling.md",
        "Tak więc, dla trzech wygenerowanych przez nas pytań, może on przypisać wagi 25%, 25% i 50%, ponieważ dwa pierwsze są tak podobne.",
        ["25%", "25%", "50%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_leybourne.py",
        "Set number of AR lags equal to the first PACF falling within the 95% confidence interval.",
        ["95%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/functional.py",
        "Color of the central 50% region - 'c_outer', valid MPL color.",
        ["50%"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/regression.py",
        "It comes as no surprise that total bill is indeed a significant predictor of the waiter's tip (T=14.26, p<0.05).",
        ["14.26", "p<0.05"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/extern/ply/yacc.py",
        "Compute the LR(0) goto function goto(I,X) where I is a set of LR(0) items and X is a grammar symbol.",
        [],
    ),
    (
        "pypi:timm-1.0.31:timm/scheduler/multistep_lr.py",
        "For example, without warmup, a milestone of 10 applies at schedule index 9.",
        [],
    ),
    (
        "pypi:timm-1.0.31:timm/optim/adopt.py",
        "if weight_decay != 0 and decoupled: wd_scale = lr ** 2 / max_lr if max_lr is not None else lr _add_scaled_(param, param, -wd_scale * weight_decay)",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/traits/neutrino.py",
        "Returns ------- Tnu0 : Quantity ['temperature'] The neutrino temperature at z=0 in Kelvin.",
        [],
    ),
    (
        "pypi:timm-1.0.31:timm/optim/laprop.py",
        "if weight_decay != 0: wd_scale = lr if max_lr is None else lr ** 2 / max_lr _foreach_add_scaled_(params, params, -wd_scale * weight_decay)",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_leybourne.py",
        "Returns ------- lmstat : float test statistic pvalue : float based on MC-derived critical values arlags : int AR(p) order used to create the filtered series cvdict : dict critical values for the test statistic at the 1%, 5%, and 10% levels",
        ["1%", "5%", "10%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/exponential_smoothing/ets.py",
        "Default is 0.05, that is, a 95% prediction interval.",
        ["0.05", "95%"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/nddata/nduncertainty.py",
        "Formula: sigma**2 = dA + dB +/- 2*cor*sqrt(dA*dB) Formula: sigma**2 = sigma_other + sigma_self +/- 2*cor*sqrt(dA*dB) (sign depends on whether addition or subtraction)",
        [],
    ),
    (
        "corpus:md/evaluate_mauve_readme.md",
        "MAUVE is unable to identify very small differences between different settings of generation (e.g., between top-p sampling with p=0.95 versus 0.96).",
        ["p=0.95"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/libqsturng/qsturng_.py",
        'if p < 0.9 and v < 2: raise ValueError("v must be >= 2 when p < .9") elif v < 1: raise ValueError("v must be >= 1 when p >= .9")',
        ["p < 0.9", "p < .9", "p >= .9"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/nonparametric.py",
        "If the distribution of the two samples can differ in an arbitrary way, then the equality Null hypothesis corresponds to p=0.5 against an alternative p != 0.5.",
        ["p=0.5"],
    ),
    (
        "deb:git/RelNotes/1.7.4.txt",
        'From the "git merge" frontend, the "-X<strategy option>" interface, e.g. "git merge -Xrename-threshold=50% ...", can be used to trigger this.',
        ["50%"],
    ),
    (
        "pypi:timm-1.0.31:timm/optim/adan.py",
        "step_size_diff = lr * beta2 / bias_correction2 step_size = lr / bias_correction1",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/wcs/wcs.py",
        ".. note:: Based on our testing using HST ACS/WFC images, setting ``detect_divergence`` to `True` will incur about 5-20% performance penalty with the larger penalty corresponding to ``adaptive`` set to `True`.",
        ["5-20%"],
    ),
    (
        "pypi:peft-0.21.2:peft-0.21.2.dist-info/METADATA",
        "For the bigscience/mt0-large model, you're only training 0.19% of the parameters!",
        ["0.19%"],
    ),
    (
        "corpus:md/gsm8k_readme.md",
        "These problems take between 2 and 8 steps to solve, and solutions primarily involve performing a sequence of elementary calculations using basic arithmetic operations (+ - / \\*) to reach the final answer.",
        ["8"],
    ),
    (
        "corpus:md/pl_learnprompting_chain_of_thought.md",
        "W szczególności, podpowiadany PaLM 540B(@chowdhery2022palm) osiąga 57% dokładności rozwiązania w GSM8K(@cobbe2021training) (SOTA w tym czasie).",
        ["57%"],
    ),
    (
        "deb:nodejs/changelogs/CHANGELOG_V20.md",
        "Performance improvements for readable webstream, improving readable stream async iterator consumption by ±140% and improving readable stream `pipeTo` consumption by ±60%",
        ["140%", "60%"],
    ),
    (
        "pypi:sentence_transformers-6.2.0:sentence_transformers/sentence_transformer/losses/cached_multiple_negatives_ranking.py",
        "As a result, memory of constant size (e.g. that works with batch size = 32) can now process much larger batches (e.g. 65536).",
        ["32"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/plotting.py",
        "The default is 1.96, which gives LoA that contain approximately 95% of differences when they are normally distributed. xaxis : str Define which measurements should be used as the reference (x-axis).",
        ["1.96", "95%"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "For instance if alpha=.05, 95 % confidence intervals are returned where the standard deviation is computed according to 1/sqrt(len(x)). result_object : bool, optional Flag controlling whether a :class:`PacfResult` is returned.",
        [".05", "95 %"],
    ),
    (
        "pypi:peft-0.21.2:peft/tuners/lora/intruders.py",
        "Operates on the cosine similarity between base weights and adapter weights roughly sorted by influence of dimension (determined by singular value decomposition), so a top-k of 10 will look at the 10 most 'important' dimensions.",
        ["10"],
    ),
    ("deb:dirmngr/copyright", "Files: tools/sockprox.c Copyright: 2007, g10 Code GmbH License: GPL-3+", []),
    (
        "deb:debconf/copyright",
        "Files: Test/* Copyright: 2005 Sylvain Ferriol <Sylvain.Ferriol@imag.fr> License: BSD-2-clause",
        [],
    ),
    (
        "deb:git/RelNotes/1.5.4.6.txt",
        "I personally do not think there is any reason anybody should want to run v1.5.4.X series these days, because 'master' version is always more stable than any tagged released version of git.",
        [],
    ),
    (
        "deb:libboost-filesystem1.74.0/copyright",
        "Files: libs/numeric/ublas/include/boost/numeric/ublas/assignment.hpp libs/numeric/ublas/doc/samples/assignment_examples.cpp libs/numeric/ublas/test/test_assignment.cpp Copyright: 2010 Athanasios Iliopoulos License: BSL-1.0",
        [],
    ),
    ("deb:nodejs/changelogs/CHANGELOG_V6.md", "2018-06-12, Version 6.14.3 'Boron' (LTS), @evanlucas", []),
    (
        "deb:libmpg123-0/copyright",
        "Files: debian/* Copyright: 2016-2021 Sebastian Ramacher <sramacher@debian.org> 2012 Miguel A.",
        [],
    ),
    (
        "deb:adduser/copyright",
        "Files: doc/po4a/po/fr.po Copyright: 2004 Software in the Public Interest 2008 Nicolas François <nicolas.francois@centraliens.net> 2010 David Prévot <david@tilapin.org> 2016-2023 Jean-Paul Guillonneau <guillonneau.jeanpaul@free.fr> License: GPL-2+",
        [],
    ),
    ("deb:python3.11/README.Debian", "Python 3.11 for Debian ---------------------", []),
    ("deb:nodejs/CHANGELOG.md", "2016-04-05, Version 5.10.1 (Stable), @thealphanerd", []),
    (
        "deb:libplexus-component-annotations-java/copyright",
        "Files: * Copyright: 2001-2008, Codehaus Foundation License: Apache-2.0",
        [],
    ),
    (
        "deb:libpulse0/copyright",
        "Files: src/pulsecore/dbus-*.*  src/modules/module-hal-detect.c Copyright: Copyright 2006 Lennart Poettering Copyright 2006 Shams E.",
        [],
    ),
    (
        "deb:dirmngr/copyright",
        "Files: scd/ccid-driver.h scd/ccid-driver.c Copyright: 2003-2007, Free Software Foundation, Inc License: GPL-3+ or BSD-3-clause",
        [],
    ),
    (
        "deb:liblzma-dev/copyright",
        "Files: dos/config.h Copyright: © 1992, 1993, 1994, 1999, 2000, 2001, 2002, 2005 Free Software Foundation, Inc. 2007-2010, Lasse Collin Other-Authors: Roland McGrath, Akim Demaille, Paul Eggert, David Mackenzie, Bruno Haible, and many others.",
        [],
    ),
    (
        "deb:bc/copyright",
        "Files: doc/dc.info Copyright: Copyright (C) 1984, 1994, 1997, 1998, 2000, 2005, 2006 Free Software Foundation, Inc.",
        [],
    ),
    ("deb:nodejs/changelogs/CHANGELOG_V15.md", "2021-02-02, Version 15.8.0 (Current), @targos", []),
    (
        "deb:libpulse0/copyright",
        "Files: src/modules/echo-cancel/adrian*.* Copyright: Copyright (C) DFS Deutsche Flugsicherung (2004).",
        [],
    ),
    ("deb:gcc-12-base/copyright", "gcc/m2/examples: Copyright (C) 2005-2015 Free Software Foundation, Inc.", []),
    ("pypi:statsmodels-0.15.0:statsmodels/base/_penalized.py", '""" Created on Sun May 10 08:23:48 2015', []),
    (
        "deb:libarchive13/copyright",
        "Files: libarchive/archive_blake2.h libarchive/archive_blake2_impl.h libarchive/archive_blake2s_ref.c libarchive/archive_blake2sp_ref.c Copyright: 2012, Samuel Neves <sneves@dei.uc.pt> License: Apache-2.0 or CC0-1.0 or OpenSSL+SSLeay",
        [],
    ),
    ("deb:nodejs/CHANGELOG.md", "2015-01-24, Version 1.0.4, @rvagg", []),
    (
        "deb:libgcrypt20/copyright",
        "@quotation Permission is granted to copy, distribute and/or modify this document under the terms of the GNU General Public License as published by the Free Software Foundation; either version 2 of the License, or (at your option) any later version.",
        [],
    ),
    ("deb:libboost-filesystem1.74.0/copyright", "Dembinski 2019 Przemyslaw Bartosik License: BSL-1.0", []),
    ("deb:libboost-filesystem1.74.0/copyright", "Siek 2001 University of Notre Dame License: BSL-1.0", []),
    (
        "deb:libboost-filesystem1.74.0/copyright",
        "Files: libs/thread/test/sync/conditions/condition_variable/lost_notif_pass.cpp libs/thread/test/sync/conditions/condition_variable_any/lost_notif_pass.cpp Copyright: 2017 Austin J.",
        [],
    ),
    ("deb:git/RelNotes/1.6.2.3.txt", "Fixes since v1.6.2.2 --------------------", []),
    ("deb:libldap-2.5-0/copyright", "Portions Copyright 2004 Howard Chu, Symas Corp.", []),
    (
        "deb:gcc-12-base/copyright",
        "Libiberty is free software; you can redistribute it and/or modify it under the terms of the GNU Library General Public License as published by the Free Software Foundation; either version 2 of the License, or (at your option) any later version.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "Returns ------- DieboldMarianoResult A result object containing the DM test statistic, its p-value, and the Harvey et al. (1997) adjustment factor, if applicable.",
        [],
    ),
    (
        "deb:nodejs/CHANGELOG.md",
        '<a href="doc/changelogs/CHANGELOG_ARCHIVE.md#0.11.11">Moved to doc/changelogs/CHANGELOG\\_ARCHIVE.md#0.11.11</a>.',
        [],
    ),
    ("deb:nodejs/changelogs/CHANGELOG_V4.md", "2016-09-27, Version 4.6.0 'Argon' (LTS), @rvagg", []),
    (
        "deb:e2fsprogs/copyright",
        "Files: lib/blkid/* misc/blkid.c Copyright: 1999, 2001 by Andries Brouwer 1994-1997, 1999-2004 Theodore Ts'o <tytso@mit.edu> 2001 Andreas Dilger License: LGPL-2",
        [],
    ),
    (
        "deb:libldap-2.5-0/copyright",
        "Files: libraries/libldap/deref.c Copyright: Copyright 1998-2022 The OpenLDAP Foundation.",
        [],
    ),
    (
        "deb:libboost-filesystem1.74.0/copyright",
        "Files: libs/config/include/boost/config/platform/hpux.hpp Copyright: 2006-2007 Boris Gubenko 2002 David Abrahams 2001-2003 Jens Maurer 2001-2003 John Maddock 2003 Toon Knapen License: BSL-1.0",
        [],
    ),
    (
        "deb:libboost-filesystem1.74.0/copyright",
        "Files: libs/intrusive/include/boost/intrusive/detail/mpl.hpp Copyright: 2006-2014 Ion Gaztañaga 2014 Microsoft Corporation License: BSL-1.0",
        [],
    ),
    (
        "deb:libldap-2.5-0/copyright",
        "Files: libraries/liblutil/meter.c Copyright: Copyright (c) 2009 by Emily Backes, Symas Corp.",
        [],
    ),
    (
        "pypi:optuna-5.0.0:optuna/distributions.py",
        '@deprecated_class("3.0.0", "6.0.0", text=_float_distribution_deprecated_msg) class UniformDistribution(FloatDistribution): """A uniform distribution in the linear domain.',
        [],
    ),
    (
        "deb:nodejs/CHANGELOG.md",
        '<a href="doc/changelogs/CHANGELOG_V010.md#0.10.34">Moved to doc/changelogs/CHANGELOG\\_V010.md#0.10.34</a>.',
        [],
    ),
    (
        "deb:grep/copyright",
        "This program is free software; you can redistribute it and/or modify it under the terms of the GNU General Public License as published by the Free Software Foundation; either version 3, or (at your option) any later version. .",
        [],
    ),
    (
        "deb:libevent-2.1-7/copyright",
        "Files: log.c Copyright: 1993, The Regents of the University of California. 2000, Dug Song <dugsong@monkey.org> 2005-2012, Niels Provos and Nick Mathewson License: BSD-3-clause",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/nonparametric/kernels_asymmetric.py",
        "Based on cdf kernel by Micheaux and Ouimet (2020)",
        [],
    ),
    (
        "deb:libcryptsetup12/copyright",
        "Files: debian/scripts/cryptdisks_start Copyright: © 2007 Jon Dowland <jon@alcopop.org> License: GPL-2+",
        [],
    ),
    (
        "deb:libgnutls-dane0/copyright",
        "Files: tests/status-request-revoked.c tests/cert-tests/certtool.sh tests/cert-tests/pkcs7.sh License: GPLv3+ Copyright: 2014-2018 Nikos Mavrogiannopoulos 2018 2020 Red Hat, Inc.",
        [],
    ),
    (
        "deb:nettle-dev/nettle.html",
        '<span id="SHA3_002d224"></span><h4 class="subsubsection">7.1.1.5 <acronym>SHA3-224</acronym></h4> <span id="index-SHA3"></span>',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/imputation/ros.py",
        "Helsel (John Wiley, 2005) to estimate the left-censored (non-detect) values of a dataset.",
        [],
    ),
    (
        "deb:libdrm-amdgpu1/copyright",
        "Copyright © 2007 Intel Corporation Copyright 2006 Tungsten Graphics, Inc., Bismarck, ND., USA Copyright © 2008 Dave Airlie Copyright © 2008 Jérôme Glisse Copyright © 2008 Nicolai Haehnle All Rights Reserved.",
        [],
    ),
    ("deb:libx11-6/copyright", "Copyright 1988 by Wyse Technology, Inc., San Jose, Ca.,", []),
    (
        "pypi:astropy-8.0.2:astropy/io/votable/exceptions.py",
        'class W22(VOTableSpecWarning): """ Version 1.0 of the VOTable specification used the ``DEFINITIONS`` element to define coordinate systems.',
        [],
    ),
    ("deb:libplexus-interpolation-java/copyright", "Copyright: 2001-2008 The Codehaus Foundation", []),
    ("deb:dash/copyright", "All rights reserved. 1997 Christos Zoulas.", []),
    (
        "deb:libpsl5/copyright",
        "Files: debian/patches/0003-Add-m4-visibility.m4-from-gnulib-20230113-stable-1.patch Copyright: 2005, 2008, 2010-2023 Free Software Foundation, Inc.",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/wcs/wcs.py",
        '""" comments = ( "# Region file format: DS9 version 4.0 \\n" \'# global color=green font="helvetica 12 bold \' "select=1 highlite=1 edit=1 move=1 delete=1 " "include=1 fixed=0 source\\n" )',
        ["select=«1»", "highlite=«1»", "edit=«1»", "move=«1»", "delete=«1»", "include=«1»", "fixed=«0»"],
    ),
    (
        "deb:nodejs/CHANGELOG.md",
        '<a href="doc/changelogs/CHANGELOG_IOJS.md#1.0.2">Moved to doc/changelogs/CHANGELOG\\_IOJS.md#1.0.2</a>.',
        [],
    ),
    (
        "deb:libip4tc2/copyright",
        "Files: include/linux/netfilter_ipv4/ip_queue.h Copyright: 2000, James Morris License: GPL-2",
        [],
    ),
    ("deb:gcc-12-base/copyright", "Copyright (C) 1991 DJ Delorie All rights reserved.", []),
    (
        "deb:python3-pyparsing/copyright",
        "Files: examples/ebnf.py examples/ebnftest.py Copyright: 2004 Seo Sanghyeon License: Expat",
        [],
    ),
    (
        "deb:libjpeg-dev/copyright",
        "Files: simd/mips64/jccolor-mmi.c simd/mips64/jcgray-mmi.c simd/mips64/jdcolor-mmi.c simd/mips64/jdmerge-mmi.c simd/mips64/loongson-mmintrin.h Copyright: 2011, 2014, D.",
        [],
    ),
    ("deb:libargon2-1/copyright", "Files: debian/* Copyright: 2016, Luca Bruno <lucab@debian.org> License: CC0", []),
    (
        "deb:libboost-filesystem1.74.0/copyright",
        "Files: libs/endian/include/boost/endian/buffers.hpp libs/endian/include/boost/endian/arithmetic.hpp Copyright: 2006, 2009, 2014 Beman Dawes 2000 Darin Adler 2019 Peter Dimov License: BSL-1.0",
        [],
    ),
    (
        "deb:libboost-filesystem1.74.0/copyright",
        "Files: tools/build/src/tools/gcc.jam Copyright: 2007 Boris Gubenko 2001 David Abrahams 2006 Ilya Sokolov 2005 Reece H.",
        [],
    ),
    (
        "deb:libldap-2.5-0/copyright",
        "Files: servers/slapd/overlays/remoteauth.c Copyright: Copyright 2004-2022 The OpenLDAP Foundation.",
        [],
    ),
    (
        "deb:libboost-filesystem1.74.0/copyright",
        "Files: libs/mpl/include/boost/mpl/map/aux_/insert_range_impl.hpp libs/mpl/include/boost/mpl/set/aux_/insert_range_impl.hpp libs/mpl/test/aux_/increased_arity.cpp Copyright: 2015 Bruno Dutra License: BSL-1.0",
        [],
    ),
    (
        "deb:findutils/copyright",
        "Files: xargs/xargs.1 Copyright: Copyright (co 1990-2022, Free Software Foundation, Inc.",
        [],
    ),
    (
        "deb:nodejs/CHANGELOG.md",
        '<a href="doc/changelogs/CHANGELOG_ARCHIVE.md#0.7.0">Moved to doc/changelogs/CHANGELOG\\_ARCHIVE.md#0.7.0</a>.',
        [],
    ),
    (
        "deb:nodejs/contributing/streaming-to-youtube.md",
        "We usually set it to `YYYY-MM-DD - Meeting Name` for example `2022-11-02 - Technical Steering Community Meeting`.",
        [],
    ),
    (
        "deb:patch/README",
        "Copyright (C) 1989-1993, 1997, 1999, 2002, 2009, 2011-2012 Free Software Foundation, Inc.",
        [],
    ),
    (
        "deb:nettle-dev/nettle.html",
        '<span id="SIV_002dCMAC_002dAES-interface"></span><h4 class="subsubsection">7.4.5.2 <acronym>SIV-CMAC</acronym>-<acronym>AES</acronym> interface</h4>',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/distributions/discrete.py",
        ".. [2] Alzaatreh, Ayman, Carl Lee, and Felix Famoye. 2012. “On the Discrete Analogues of Continuous Distributions.” Statistical Methodology 9 (6): 589-603.",
        [],
    ),
    (
        "deb:libboost-filesystem1.74.0/copyright",
        "Files: tools/build/bootstrap.sh Copyright: 2010 Bryce Lelbach 2005-2006 Douglas Gregor 2018-2020 Rene Rivera 2006 The Trustees of Indiana University License: BSL-1.0",
        [],
    ),
    (
        "deb:nodejs/CHANGELOG.md",
        '<a href="doc/changelogs/CHANGELOG_V012.md#0.12.9">Moved to doc/changelogs/CHANGELOG\\_V012.md#0.12.9</a>.',
        [],
    ),
    ("deb:nodejs/changelogs/CHANGELOG_V12.md", "2020-05-26, Version 12.17.0 'Erbium' (LTS), @targos", []),
]

FRESH_HELD_OUT = [
    (
        "pypi:lightning-2.6.6:lightning/pytorch/utilities/deepspeed.py",
        'Lightning deepspeed has saved a directory instead of a file convert_zero_checkpoint_to_fp32_state_dict( "lightning_logs/version_0/checkpoints/epoch=0-step=0.ckpt/", "lightning_model.pt" )',
        [],
    ),
    (
        "pypi:lightning-2.6.6:lightning/fabric/utilities/seed.py",
        "If ``None`` and the ``PL_GLOBAL_SEED`` env variable is not set, then the seed defaults to 0.",
        ["0"],
    ),
    (
        "pypi:lightning-2.6.6:lightning-2.6.6.dist-info/METADATA",
        "\\*Codecov is > 90%+ but build delays may show less",
        ["90%"],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/tuner/batch_size_scaling.py",
        "Used purely for logging max_val: Maximum batch size limit, defaults to 8192.",
        ["8192"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/schedulers/scheduling_vq_diffusion.py",
        "Args: log_p_x_0 (`torch.Tensor` of shape `(batch size, num classes - 1, num latent pixels)`): The log probabilities for the predicted classes of the initial latent pixels.",
        [],
    ),
    (
        "pypi:bitsandbytes-0.50.2:bitsandbytes/optim/optimizer.py",
        "The key-values of the optimizer config for the input parameters are overridden This can be both, optimizer parameters like `betas` or `lr`, or it can be 8-bit specific parameters like `optim_bits`.",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/helios/before_denoise.py",
        "Must have batch size 1 or batch_size. batch_size (int): The base batch size (number of prompts) num_videos_per_prompt (int, optional): Number of videos to generate per prompt.",
        ["1"],
    ),
    (
        "pypi:bitsandbytes-0.50.2:bitsandbytes/backends/default/ops.py",
        "update_val = update_scale * (-lr * s1_vals) p_vals = p_vals + update_val",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/models/autoencoders/autoencoder_kl_minimax_h3_audio.py",
        'class MiniMaxH3AudioEncoder(nn.Module): r"""DAC waveform encoder: `[batch_size, 1, samples] -> [batch_size, latent_dim, samples / 800]`."""',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/stable_diffusion_safe/pipeline_stable_diffusion_safe.py",
        "if i >= sld_warmup_steps:  # Warmup Equation 3 noise_guidance = noise_guidance - noise_guidance_safety",
        [],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/callbacks/batch_size_finder.py",
        "Defaults to 0.05 (5% reduction). max_val: Maximum batch size limit, defaults to 8192.",
        ["0.05", "5%", "8192"],
    ),
    (
        "pypi:ultralytics-8.4.190:ultralytics/cfg/__init__.py",
        "Train a detection model for 10 epochs with an initial learning_rate of 0.01 yolo train data=coco8.yaml model=yolo26n.pt epochs=10 lr0=0.01",
        ["10", "0.01", "10", "0.01"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/anima/before_denoise.py",
        "The function will: - If batch size is 1: repeat each element (batch_size * num_images_per_prompt) times - If batch size equals batch_size: repeat each element num_images_per_prompt times",
        ["1"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/guiders/classifier_free_zero_star_guidance.py",
        "The authors of the paper suggest setting zero initialization in the first 4% of the inference steps.",
        ["4%"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/anima/before_denoise.py",
        "The input tensor must have batch size 1 or batch_size.",
        ["1"],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/loops/fit_loop.py",
        "Args: min_epochs: The minimum number of epochs max_epochs: The maximum number of epochs, can be set -1 to turn this limit off",
        [],
    ),
    (
        "pypi:ultralytics-8.4.190:ultralytics/cfg/__init__.py",
        "Validate a pretrained detection model at batch-size 1 and image size 640: yolo val model=yolo26n.pt data=coco8.yaml batch=1 imgsz=640",
        ["1", "1", "640"],
    ),
    (
        "pypi:setfit-1.2.0:setfit/training_args.py",
        "Arguments that do not affect performance show_progress_bar: bool = True seed: int = 42",
        ["42"],
    ),
    (
        "pypi:flair-0.15.1:flair/optim.py",
        "Models often benefit from reducing the learning rate by a factor of 2-10 once learning stagnates.",
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/regression/minkowski.py",
        "This metric can be seen as generalized version of the standard euclidean distance which corresponds to minkowski distance with p=2.",
        ["p=2"],
    ),
    (
        "pypi:ultralytics-8.4.190:ultralytics/utils/callbacks/platform.py",
        'stopper.best_epoch is 1-indexed; -1 aligns with the 0-indexed `epoch` field best_epoch = max(0, getattr(getattr(trainer, "stopper", None), "best_epoch", trainer.epoch + 1) - 1)',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/schedulers/scheduling_vq_diffusion.py",
        "The tensor has shape `(batch size, num classes - 1, num latent pixels)` when `cumulative` is `True` and shape `(batch size, num classes, num latent pixels)` otherwise.",
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/classification/accuracy.py",
        "multilabel: If input is multilabel or not top_k: value for top-k accuracy, else 1",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/anima/before_denoise.py",
        "Must have batch size 1 or batch_size. batch_size (int): The base batch size (number of prompts) num_images_per_prompt (int, optional): Number of images to generate per prompt.",
        ["1"],
    ),
    (
        "pypi:flair-0.15.1:flair/models/prefixed_tagger.py",
        'Example: "[Tag gene and disease] Mutations in the TP53 tumour suppressor gene are found in ~50% of human cancers" """',
        ["50%"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/rfd4_proteina/pipeline_rfd4_proteina.py",
        "Trunk recycling passes of the released front-loaded schedule: 60 steps and 180 passes.",
        ["60"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/wan/before_denoise.py",
        "For encoded image latents, use it update height/width if None, and expands batch size 2.",
        ["2"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/helios/before_denoise.py",
        "For encoded image latents: Computes height/width from latents and expands batch size 2.",
        ["2"],
    ),
    (
        "pypi:ultralytics-8.4.190:ultralytics/engine/model.py",
        "Returns: (tuple | None): The selected ``(a, b)``, or ``None`` if fewer than 2 images had valid depth pixels.",
        ["2"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/flux3/modular_pipeline.py",
        'class Flux3DistilledModularPipeline(Flux3ModularPipeline): """ A ModularPipeline for the step-distilled FLUX.3 model (16 steps, no classifier-free guidance). """',
        ["16"],
    ),
    (
        "pypi:xgboost-3.2.0:xgboost/testing/basic_models.py",
        "test custom_objective in cross-validation cv( param, dtrain, num_round, nfold=5, seed=0, obj=tm.logregobj, custom_metric=evalerror, )",
        ["5", "0"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/models/autoencoders/autoencoder_kl_minimax_h3_audio.py",
        "MiniMax-H3 carries stereo as two *batch* items — the pipeline decodes `[2, 32, T]` into `[2, 1, samples]` and interleaves at the output boundary — so no stereo handling belongs here.",
        [],
    ),
    (
        "pypi:ultralytics-8.4.190:ultralytics/engine/trainer.py",
        'Usage: $ yolo train model=yolo26n.pt data=coco8.yaml imgsz=640 epochs=100 batch=16 """',
        ["640", "100", "16"],
    ),
    (
        "pypi:flair-0.15.1:flair/data.py",
        "Default value is 0.1, meaning it gets downsampled to 10%. downsample_train: Whether or not to include the training split in downsampling.",
        ["0.1", "10%"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/helios/before_denoise.py",
        "The function will: - If batch size is 1: repeat each element (batch_size * num_videos_per_prompt) times - If batch size equals batch_size: repeat each element num_videos_per_prompt times",
        ["1"],
    ),
    (
        "pypi:bitsandbytes-0.50.2:bitsandbytes/backends/default/ops.py",
        "MOMENTUM = 0 RMSPROP = 1 ADAGRAD = 2 ADAM = 3 LION should be larger than MOMENTUM, RMSPROP, ADAGRAD due to comparison in kernels LION = 4 ADEMAMIX = 5",
        ["0", "1", "2", "3", "4", "5"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/training_utils.py",
        "The paper uses lambda = sqrt(1 - alpha) ** p, with p = 1 in their experiments. dream_lambda = sqrt_one_minus_alphas_cumprod**dream_detail_preservation",
        ["p = 1"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/minimax_h3/modular_pipeline.py",
        "The audio VAE hops 800 samples at 32 kHz, i.e. 40 latents per second.",
        ["800"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/flux3/modular_blocks_flux3_distilled.py",
        "The step-distilled (flow-map) FLUX.3 checkpoints: 16 steps and no classifier-free guidance.",
        ["16"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/models/transformers/transformer_anyflow_far.py",
        "Use ``AnyFlowTransformer3DModel`` instead for plain bidirectional T2V — that variant skips the FAR causal masking and ``far_patch_embedding`` and is ~5–10% smaller.",
        ["5–10%"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/kolors/text_encoder.py",
        'class PrefixEncoder(torch.nn.Module): """ The torch.nn model to encode the prefix Input shape: (batch-size, prefix-length) Output shape: (batch-size, prefix-length, 2*layers*hidden) """',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/optim.py",
        "For example, if `patience = 2`, then we will ignore the first 2 epochs with no improvement, and will only decrease the LR after the 3rd epoch if the loss still hasn't improved then.",
        ["2", "2"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/schedulers/scheduling_block_refinement.py",
        "scaled = flat_logits if temperature != 1.0: scaled = flat_logits / temperature",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/schedulers/scheduling_vq_diffusion.py",
        "Args: q (`torch.Tensor` of shape `(batch size, num classes - 1, num latent pixels)`): The log probabilities over the non-mask latent pixel classes. t (`int` or `torch.Tensor`): The timestep that determines which cumulative transition matrix is used.",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/qwenimage/inputs.py",
        "For image latent inputs: Updates height/width if None, patchifies with layered pachifier, and expands batch size 2.",
        ["2"],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/callbacks/progress/progress_bar.py",
        "Epoch 1:   4%|▎         | 40/1095 [00:03<01:37, 10.84it/s, v_num=10]",
        ["1", "4%", "v_num=«10»"],
    ),
    (
        "pypi:bitsandbytes-0.50.2:bitsandbytes/backends/default/ops.py",
        "correction1 = 1.0 - beta1**step correction2 = sqrt(1.0 - beta2**step) step_size = -lr * correction2 / correction1",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/hooks/mag_cache.py",
        "For example, if `num_inference_steps` is 28 and `retention_ratio` is 0.2, the first 6 steps will never be skipped. num_inference_steps (`int`, defaults to `28`): The number of inference steps used in the pipeline.",
        ["28", "0.2", "6", "28"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/qwenimage/inputs.py",
        "For image latent inputs: Updates height/width if None, patchifies, and expands batch size 2.",
        ["2"],
    ),
    (
        "pypi:ultralytics-8.4.190:ultralytics/utils/callbacks/comet.py",
        'Returns: (dict): Dictionary containing current epoch, step, save assets flag, and final epoch flag. """ curr_epoch = trainer.epoch + 1',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/unidiffuser/pipeline_unidiffuser.py",
        '_last_supported_version = "0.33.1" TODO: support for moving submodules for components with enable_model_cpu_offload model_cpu_offload_seq = "text_encoder->image_encoder->unet->vae->text_decoder"',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/datasets/document_classification.py",
        'class WASSA_SADNESS(ClassificationCorpus): """WASSA-2017 sadness emotion-intensity corpus.',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/stable_diffusion_ldm3d/pipeline_stable_diffusion_ldm3d.py",
        'class StableDiffusionLDM3DPipeline( DeprecatedPipelineMixin, DiffusionPipeline, StableDiffusionMixin, TextualInversionLoaderMixin, IPAdapterMixin, StableDiffusionLoraLoaderMixin, FromSingleFileMixin, ): _last_supported_version = "0.33.1"',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/embeddings/token.py",
        '@register_embeddings class CharacterEmbeddings(TokenEmbeddings): """Character embeddings of words, as proposed in Lample et al., 2016."""',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/datasets/biomedical.py",
        'class CRAFT(ColumnCorpus): """Original CRAFT corpus (version 2.0) containing all but the coreference and sections/typography annotations.',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/datasets/biomedical.py",
        'train_folder = download_folder / "bionlp-st-2013-cg-master/original-data/train" dev_folder = download_folder / "bionlp-st-2013-cg-master/original-data/devel" test_folder = download_folder / "bionlp-st-2013-cg-master/original-data/test"',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/datasets/biomedical.py",
        '@deprecated(version="0.13.0", reason="Please use data set implementation from BigBio instead (see BIGBIO_NER_CORPUS)") class OSIRIS(ColumnCorpus): """Original OSIRIS corpus containing variation and gene annotations.',
        [],
    ),
    (
        "pypi:xgboost-3.2.0:xgboost/dask/__init__.py",
        'coll_cfg = Config( retry=1, timeout=20, tracker_host_ip="10.23.170.98", tracker_port=0 )',
        ["1", "20"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/modular_pipelines/minimax_h3/references.py",
        'It never binds the generated geometry — it is encoded at a short edge of its own, 2048 for the released checkpoint, whatever canvas the request generates at. """',
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/image/sam.py",
        'Boardman, "Discrimination among semi-arid landscape endmembers using the Spectral Angle Mapper (SAM) algorithm" in PL, Summaries of the Third Annual JPL Airborne Geoscience Workshop, vol. 1, June 1, 1992.',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/ernie_image/pipeline_ernie_image.py",
        'if is_transformers_version("<", "5.0.0"): raise ImportError("`ErnieImagePipeline` requires `transformers>=5.0.0` for `Ministral3ForCausalLM`.")',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/datasets/biomedical.py",
        '@deprecated(version="0.13", reason="Please use data set implementation from BigBio instead (see BIGBIO_NER_CORPUS)") class BIONLP2013_CG(BioNLPCorpus): """Corpus of the BioNLP\'2013 Cancer Genetics shared task.',
        [],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/utilities/migration/migration.py",
        "Version: 1.6.0 Commit: c67b075 PR: #13645, #11805",
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/text/sacre_bleu.py",
        "MIT License Copyright (c) 2017 - Shujian Huang <huangsj@nju.edu.cn>",
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/__init__.py",
        'global variable: version __version__ = "0.15.1" """The current version of the flair library installed."""',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/models/modeling_utils.py",
        'if is_torch_version(">=", "1.9.0"): _LOW_CPU_MEM_USAGE_DEFAULT = True else: _LOW_CPU_MEM_USAGE_DEFAULT = False',
        [],
    ),
    (
        "pypi:xgboost-3.2.0:xgboost/testing/with_skl.py",
        "X, y = make_multilabel_classification(  # pylint: disable=unbalanced-tuple-unpacking random_state=1994, n_samples=128, n_features=16, n_classes=n_classes )",
        ["1994", "128", "16"],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/multimodal/clip_score.py",
        "Raises: ModuleNotFoundError: If transformers package is not installed or version is lower than 4.10.0",
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/text/eed.py",
        "Ney, “EED: Extended Edit Distance Measure for Machine Translation”, submitted to WMT 2019. 8.",
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/embeddings/legacy.py",
        'class ELMoEmbeddings(TokenEmbeddings): """Contextual word embeddings using word-level LM, as proposed in Peters et al., 2018.',
        [],
    ),
    (
        "pypi:ultralytics-8.4.190:ultralytics/utils/checks.py",
        "Args: version (str): Version string, e.g. '2.0.1+cpu', '4.13.0.92', or 'v2.1'.",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/stable_cascade/pipeline_stable_cascade.py",
        '_last_supported_version = "0.35.2"',
        [],
    ),
    (
        "pypi:setfit-1.2.0:setfit/trainer_distillation.py",
        'class DistillationSetFitTrainer(DistillationTrainer): """ `DistillationSetFitTrainer` has been deprecated and will be removed in v2.0.0 of SetFit.',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/stable_diffusion_attend_and_excite/pipeline_stable_diffusion_attend_and_excite.py",
        '_last_supported_version = "0.33.1"',
        [],
    ),
    ("pypi:diffusers-0.42.1:diffusers/loaders/transformer_sd3.py", "Only supported for PyTorch >= 1.9.0.", []),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/image/inception.py",
        "Can be one of the following: 'logits_unbiased', 64, 192, 768, 2048 - an ``nn.Module`` for using a custom feature extractor.",
        [],
    ),
    ("pypi:diffusers-0.42.1:diffusers-0.42.1.dist-info/METADATA", "<!--- Copyright 2022 - The HuggingFace Team.", []),
    (
        "pypi:xgboost-3.2.0:xgboost/testing/with_skl.py",
        "n_classes = 4 X, y = make_classification( random_state=1994, n_samples=128, n_features=16, n_classes=n_classes, n_informative=16, n_redundant=0, )",
        ["4", "1994", "128", "16", "16", "0"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/allegro/pipeline_allegro.py",
        'It will be removed in a future version." deprecate("mask_feature", "1.0.0", deprecation_message, standard_warn=False)',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/models/transformers/transformer_anyflow_far.py",
        "Extends the v0.35.1 Wan2.1 backbone with:",
        [],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/utilities/migration/migration.py",
        "Version: 2.0.0 Commit: e544676ff434ed96c6dd3b4e73a708bcb27ebcf1 PR: #16149",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/stable_diffusion/pipeline_onnx_stable_diffusion_inpaint.py",
        'class OnnxStableDiffusionInpaintPipeline(DeprecatedPipelineMixin, DiffusionPipeline): _last_supported_version = "0.43.0"',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/models/autoencoders/autoencoder_kl_allegro.py",
        "TODO(aryan): For the 1.0.0 refactor, `temporal_compression_ratio` can be inferred directly and we don't need to use a specific parameter here or in other VAEs.",
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/datasets/sequence_labeling.py",
        "Smith (2012), Recall-Oriented Learning of Named Entities in Arabic Wikipedia.",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/schedulers/scheduling_edm_euler.py",
        'class EDMEulerScheduler(SchedulerMixin, ConfigMixin): """ Implements the Euler scheduler in EDM formulation as presented in Karras et al. 2022 [1].',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/embeddings/token.py",
        '@register_embeddings class FlairEmbeddings(TokenEmbeddings): """Contextual string embeddings of words, as proposed in Akbik et al., 2018."""',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/hooks/faster_cache.py",
        "⍺1 and ⍺2 as mentioned in Equation 11 of the paper alpha_low_frequency: float = 1.1 alpha_high_frequency: float = 1.1",
        ["1.1", "1.1"],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/text_to_video_synthesis/pipeline_text_to_video_synth.py",
        'class TextToVideoSDPipeline( DeprecatedPipelineMixin, DiffusionPipeline, StableDiffusionMixin, TextualInversionLoaderMixin, StableDiffusionLoraLoaderMixin, ): _last_supported_version = "0.33.1" r""" Pipeline for text-to-video generation.',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/stable_diffusion_safe/pipeline_stable_diffusion_safe.py",
        "Equation 7 noise_guidance_safety = noise_guidance_safety + sld_momentum_scale * safety_momentum",
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/image/uqi.py",
        'Bovik, "A universal image quality index," in IEEE Signal Processing Letters, vol. 9, no. 3, pp. 81-84, March 2002, doi: 10.1109/97.995823.',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/stable_diffusion/pipeline_onnx_stable_diffusion_upscale.py",
        'class OnnxStableDiffusionUpscalePipeline(DeprecatedPipelineMixin, DiffusionPipeline): _last_supported_version = "0.43.0"',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/data.py",
        'This is useful for some old NLP tasks (such as CoNLL-03 and CoNLL-2000) that provide only tokenized data with no info of original whitespacing. :return: """ last_token = None quote_count: int = 0 infer whitespace after field',
        ["int = «0»"],
    ),
    ("pypi:lightning-2.6.6:lightning/pytorch/utilities/migration/migration.py", "Version: 0.10.0 Commit: a5d1176", []),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/stable_diffusion_safe/pipeline_stable_diffusion_safe.py",
        'class StableDiffusionPipelineSafe(DeprecatedPipelineMixin, DiffusionPipeline, StableDiffusionMixin, IPAdapterMixin): _last_supported_version = "0.33.1"',
        [],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/utilities/migration/migration.py",
        "Version: 2.0.0 Commit: ec4f592ecfe238edd83185f6c6905fb1e2406d61 PR: #16726",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/unclip/pipeline_unclip.py",
        '_last_supported_version = "0.33.1" _exclude_from_cpu_offload = ["prior"]',
        [],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/callbacks/stochastic_weight_avg.py",
        "Stochastic Weight Averaging was proposed in ``Averaging Weights Leads to Wider Optima and Better Generalization`` by Pavel Izmailov, Dmitrii Podoprikhin, Timur Garipov, Dmitry Vetrov and Andrew Gordon Wilson (UAI 2018).",
        [],
    ),
    (
        "pypi:setfit-1.2.0:setfit/trainer.py",
        'class SetFitTrainer(Trainer): """ `SetFitTrainer` has been deprecated and will be removed in v2.0.0 of SetFit.',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/stable_diffusion/pipeline_onnx_stable_diffusion.py",
        'class OnnxStableDiffusionPipeline(DeprecatedPipelineMixin, DiffusionPipeline): _last_supported_version = "0.43.0"',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/embeddings/token.py",
        '@register_embeddings @deprecated( reason="The FastTextEmbeddings are no longer supported and will be removed at version 0.16.0", version="0.14.0" ) class FastTextEmbeddings(TokenEmbeddings): """FastText Embeddings with oov functionality."""',
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/image/uqi.py",
        'Simoncelli, "Image quality assessment: from error visibility to structural similarity," in IEEE Transactions on Image Processing, vol. 13, no. 4, pp. 600-612, April 2004, doi: 10.1109/TIP.2003.819861.',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/datasets/biomedical.py",
        '@deprecated(version="0.13.0", reason="Please use data set implementation from BigBio instead (see BIGBIO_NER_CORPUS)") class SCAI_DISEASE(ScaiCorpus): """Original SCAI disease corpus containing disease annotations.',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/schedulers/scheduling_edm_dpmsolver_multistep.py",
        'class EDMDPMSolverMultistepScheduler(SchedulerMixin, ConfigMixin): """ Implements DPMSolverMultistepScheduler in EDM formulation as presented in Karras et al. 2022 [1]. `EDMDPMSolverMultistepScheduler` is a fast dedicated high-order solver for diffusion ODEs.',
        [],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/utilities/migration/migration.py",
        "Version: 1.6.0 Commit: aea96e4 PR: #11805",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/utils/versions.py",
        '```python require_version("pandas>1.1.2") require_version("numpy>1.18.5", "this is important to have for whatever reason") ```"""',
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/datasets/biomedical.py",
        'class CRAFT_V4(ColumnCorpus): """Version 4.0.1 of the CRAFT corpus containing all but the co-reference and structural annotations.',
        [],
    ),
    ("pypi:flair-0.15.1:flair/datasets/sequence_labeling.py", 'data_folder = base_path / "conll-2012"', []),
    (
        "pypi:bitsandbytes-0.50.2:bitsandbytes/backends/triton/kernels_optim.py",
        "This is correct for MOMENTUM/RMSPROP/ADAGRAD, but NOT for LION (id 4), which uses *decoupled* (AdamW-style) weight decay applied to the param directly (see the LION branch below and Chen et al. 2023).",
        [],
    ),
    (
        "pypi:lightning-2.6.6:lightning/fabric/strategies/deepspeed.py",
        '_DEEPSPEED_AVAILABLE = RequirementCache("deepspeed") _DEEPSPEED_GREATER_EQUAL_0_16 = RequirementCache("deepspeed>=0.16.0")',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/models/autoencoders/autoencoder_rfd4_proteina.py",
        "Diffusers integration additions are licensed under the Apache License, Version 2.0.",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/audioldm/pipeline_audioldm.py",
        '_last_supported_version = "0.33.1" model_cpu_offload_seq = "text_encoder->unet->vae"',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/models/attention_dispatch.py",
        '_REQUIRED_FLASH_VERSION = "2.6.3" _REQUIRED_SAGE_VERSION = "2.1.1" _REQUIRED_FLEX_VERSION = "2.5.0" _REQUIRED_XLA_VERSION = "2.2" _REQUIRED_XFORMERS_VERSION = "0.0.29"',
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/models/transformers/consisid_transformer_3d.py",
        "LFE_output_dim (`int`, optional, defaults to `2048`): The output dimension of the Local Facial Extractor (LFE).",
        ["2048"],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/utilities/migration/migration.py",
        "Version: 1.6.5 Commit: c67b075 PR: #13645",
        [],
    ),
    (
        "pypi:lightning-2.6.6:lightning/pytorch/callbacks/model_checkpoint.py",
        "If you provide a ``filename`` on a mounted device where changing permissions is not allowed (causing ``chmod`` to raise a ``PermissionError``), install `fsspec>=2025.5.0`.",
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/detection/ciou.py",
        "Raises: ModuleNotFoundError: If torchvision is not installed with version 0.13.0 or newer.",
        [],
    ),
    (
        "pypi:flair-0.15.1:flair/datasets/document_classification.py",
        'class WASSA_FEAR(ClassificationCorpus): """WASSA-2017 fear emotion-intensity corpus.',
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/classification/ranking.py",
        "References: [1] Tsoumakas, G., Katakis, I., & Vlahavas, I. (2010).",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/pipelines/deprecated/stable_diffusion_variants/pipeline_onnx_stable_diffusion_inpaint_legacy.py",
        'class OnnxStableDiffusionInpaintPipelineLegacy(DeprecatedPipelineMixin, DiffusionPipeline): _last_supported_version = "0.43.0"',
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/image/arniqa.py",
        'if not _TORCH_GREATER_EQUAL_2_2:  # ToDo: RuntimeError: "slow_conv2d_cpu" not implemented for \'Half\' raise RuntimeError("ARNIQA metric requires PyTorch >= 2.2.0")',
        [],
    ),
    (
        "pypi:ultralytics-8.4.190:ultralytics/data/dataset.py",
        "Ultralytics dataset *.cache version, >= 1.0.0 for Ultralytics YOLO models. 1.0.12: Accept UTF-8 byte-order marks in labels. 1.0.11: Reject negative box dimensions. 1.0.10: EXIF-rotated image shapes match the decoded image.",
        [],
    ),
    (
        "pypi:torchmetrics-1.9.0:torchmetrics/functional/classification/specificity_sensitivity.py",
        ".. warning:: This function was deprecated in v1.3.0 of Torchmetrics and will be removed in v2.0.0.",
        [],
    ),
    (
        "pypi:diffusers-0.42.1:diffusers/schedulers/scheduling_cosine_dpmsolver_multistep.py",
        'class CosineDPMSolverMultistepScheduler(SchedulerMixin, ConfigMixin): """ Implements a variant of `DPMSolverMultistepScheduler` with cosine schedule, proposed by Nichol and Dhariwal (2021).',
        [],
    ),
]


def split(examples=EXAMPLES):
    """``(tune, held_out)``: a fixed half by a hash of each text."""
    tune, held = [], []
    for ex in examples:
        (held if hashlib.sha1(ex[1].encode("utf-8")).digest()[0] % 2 else tune).append(ex)
    return tune, held
