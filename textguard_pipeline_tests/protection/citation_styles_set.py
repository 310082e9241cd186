"""Labelled citation styles set (issue 15): real public text, hand-checked gold spans.

Each example is ``(origin, text, gold)``; ``gold`` lists the exact citation substrings in order
of appearance. Origins: ``pypi:<wheel>:<path>`` = a docstring or comment of that PyPI wheel
(statsmodels, astropy, colossus, gala, emcee, dynesty, pingouin, linearmodels, lifelines:
astronomy, statistics / social science, econometrics, CS); ``deb:<path>`` = /usr/share/doc of
this machine's Debian packages; ``written`` = look-alikes written here for the issue's list.
Sentences were cut at sentence ends from docstring paragraphs (line breaks joined).

Span policy (docs/protection.md): a parenthetical citation is one span from its opening to its
closing bracket, prefixes, locators and remarks included; citations inside a longer bracket
are spans without the bracket; a narrative one covers the names through the closing
parenthesis of its year group, or the names and the year ("Novak 2015"). Reference-list
entries (author initials, journal, volume) are out of scope and were left out of the set.
The gold is what a careful reader marks, including the forms the recogniser misses.

Half of the set is held out (:func:`split`: by a hash of the text) and never used to tune.
"""

import hashlib

EXAMPLES = [
    (
        "pypi:statsmodels-0.15.0:statsmodels/sandbox/stats/multicomp.py",
        "Zwillinger, Daniel and Stephen Kokoska, 2000, CRC standard probability and statistics tables and formulae, Chapman&Hall/CRC 14.9 WILCOXON RANKSUM (MANN WHITNEY) TEST",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "Poisson dispersion tests are based on Dean 1992 and articles and text books by Cameron and Trivedi.",
        ["Dean 1992"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "The Eke-Cole-Frenk correction :math:`\\\\delta_c \\\\propto \\\\Omega_{\\\\rm m}(z)^{0.0055}` is the original van den Bosch 2002 convention, so ``corrections=True`` is applied to ``deltac_args`` by default.",
        ["van den Bosch 2002"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "McBride et al. 2009 dM/dt fit coefficients (amplitude, mass exponent, redshift slope), used as dM/dt = A (M/1e12)^b (1 + c z) sqrt(Om0 (1+z)^3 + Ode0) in Msun/yr (M in physical Msun).",
        ["McBride et al. 2009"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/lss/peaks.py",
        "Get the mean peak curvature, <x>, at fixed nu from the integral of Bardeen et al. 1986 (BBKS).",
        ["Bardeen et al. 1986"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        'It does not use the computation attributed to Kent (1982) and Engle (1984). """',
        ["Kent (1982)", "Engle (1984)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/arima/estimators/hannan_rissanen.py",
        "TODO: Gomez and Maravall (2001) or Gomez (1998) propose one more step here to further improve MA estimates",
        ["Gomez and Maravall (2001)", "Gomez (1998)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "The Eke-Cole-Frenk correction :math:`\\\\delta_c \\\\propto \\\\Omega_{\\\\rm m}(z)^{0.0055}` is the original van den Bosch et al. 2014 convention, so ``corrections=True`` is applied to ``deltac_args`` by default.",
        ["van den Bosch et al. 2014"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/grunfeld/data.py",
        'COPYRIGHT = """This is public domain.""" TITLE = __doc__ SOURCE = """This is the Grunfeld (1950) Investment Data.',
        ["Grunfeld (1950)"],
    ),
    (
        "pypi:gala-1.11.0:gala-1.11.0.dist-info/METADATA",
        "Copyright 2013-2025 Adrian Price-Whelan and contributors.",
        [],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/iv/common.py",
        "The statistic is the minimum eigenvalue statistic of Cragg and Donald (1993),",
        ["Cragg and Donald (1993)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/stats/histogram.py",
        'Diaconis (1981) "On the histogram as a density estimator: L2 theory".',
        ["Diaconis (1981)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "The p-values are obtained through regression surface approximation from MacKinnon 1994, but using the updated 2010 tables.",
        ["MacKinnon 1994"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/cosmology/power_spectrum.py",
        'See also -------- modelEisenstein98ZeroBaryon: The zero-baryon transfer function according to Eisenstein & Hu 1998. """',
        ["Eisenstein & Hu 1998"],
    ),
    (
        "pypi:emcee-3.1.6:emcee/moves/walk.py",
        'class WalkMove(RedBlueMove): """ A `Goodman & Weare (2010) <https://msp.org/camcos/2010/5-1/p04.xhtml>`_ "walk move" with parallelization as described in `Foreman-Mackey et al. (2013) <https://arxiv.org/abs/1202.3665>`_.',
        ["Goodman & Weare (2010)", "Foreman-Mackey et al. (2013)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/inter_rater.py",
        "Warrens (2010) showed that Randolph's kappa is always larger or equal to Fleiss' kappa.",
        ["Warrens (2010)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/multivariate/factor_rotation/_analytic_rotation.py",
        "[2] Schonemann (1966) - A generalized solution of the orthogonal procrustes problem",
        ["Schonemann (1966)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/cosmology/power_spectrum.py",
        "This function was tested against numerical calculations based on the CAMB code (`Lewis et al. 2000 <http://scixplorer.org/abs/2000ApJ...538..473L>`__) and found to be accurate to 5\\\\% or better up to k of about 100 h/Mpc (see the Colossus code paper for details).",
        ["Lewis et al. 2000"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/statecrime/data.py",
        'COPYRIGHT = "Public domain." TITLE = "Statewide Crime Data 2009" SOURCE = """ All data is for 2009 and was obtained from the American Statistical Abstracts except as indicated below. """',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/oneway.py",
        "The method is Browne-Forsythe (1971) for testing equality of means with the corrected degrees of freedom by Merothra.",
        ["Browne-Forsythe (1971)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/scale.py",
        "Notes ----- Uses definition of Maronna and Zamar 2002, with weighted mean and trimmed variance.",
        ["Maronna and Zamar 2002"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/robust_linear_model.py",
        'R Venables, B Ripley. \'Modern Applied Statistics in S\'  Springer, New York, 2002. """',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/statespace/tools.py",
        "Corresponds to the inverse of Lemma 2.1 in Ansley and Kohn (1986).",
        ["Ansley and Kohn (1986)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/wcs/wcsapi/fitswcs.py",
        "Note that these values differ from those used by CASA (308 km/s towards l=105, b=-7) but we use the above values since these are the ones defined in Greisen et al (2006).",
        ["Greisen et al (2006)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "use OPG variance as in Wooldridge 1990.",
        ["Wooldridge 1990"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/iv/model.py",
        "They can understate the uncertainty when there are many instruments (see Chao, Swanson, Hausman, Newey and Woutersen, 2012).",
        ["(see Chao, Swanson, Hausman, Newey and Woutersen, 2012)"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/datasets/mroz/__init__.py",
        '""" Married women\'s labor supply data of Mroz (1987). """',
        ["Mroz (1987)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/cosmology/power_spectrum.py",
        'See also -------- modelEisenstein98: The transfer function according to Eisenstein & Hu 1998. """',
        ["Eisenstein & Hu 1998"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/concentration.py",
        "This model constitutes a recalibration of the Diemer & Joyce 2019 model based on the Uchuu simulation.",
        ["Diemer & Joyce 2019"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "This is based on Newey 1985 on GMM.",
        ["Newey 1985"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "Newey and McFadden 1994 provide some of the theoretical background.",
        ["Newey and McFadden 1994"],
    ),
    (
        "pypi:dynesty-3.1.0:dynesty/dynesty.py",
        'Basics of nested sampling algorithm nested_refs = [ ("Skilling (2004)", "ui.adsabs.harvard.edu/abs/2004AIPC..735..395S"), ("Skilling (2006)", "projecteuclid.org/euclid.ba/1340370944") ]',
        ["Skilling (2004)", "Skilling (2006)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/flrw/wpwazpcdm.py",
        ">>> cosmo.comoving_distance(0.5) <Quantity 1868.68474438 Mpc>",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/scale.py",
        "The implementation follows the algorithm described in Croux and Rousseeuw (1992).",
        ["Croux and Rousseeuw (1992)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/robust_linear_model.py",
        "PJ Huber.  1973,  'The 1972 Wald Memorial Lectures: Robust Regression: Asymptotics, Conjectures, and Monte Carlo.'  The Annals of Statistics, 1.5, 799-821.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/oaxaca.py",
        'Blinder "Wage Discrimination: Reduced Form and Structural Estimates," The Journal of Human Resources, 1973. """',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/strikes/data.py",
        'COPYRIGHT = """This is public domain.""" TITLE = __doc__ SOURCE = """ This is a subset of the data used in Kennan (1985).',
        ["Kennan (1985)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/multivariate.py",
        "unchanged Stata formula, but denom is cov cancels, AFAICS Bartlett 1954 correction factor in IIIc cov = np.asarray(cov) k = cov.shape[0]",
        ["Bartlett 1954"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/effsize.py",
        "* Jung, Lee, Gupta, & Cho (2019).",
        ["Jung, Lee, Gupta, & Cho (2019)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/stattools.py",
        'References ---------- .. [*] Tae-Hwan Kim and Halbert White, "On more robust estimation of skewness and kurtosis," Finance Research Letters, vol. 1, pp. 56-73, March 2004. """ perc = (alpha, 100.0 - alpha, beta, 100.0 - beta) lower_alpha, upper_alpha, lower_beta, upper_beta = np.percentile(y, perc) l_alpha = np.mean(y[y < lower_alpha]) u_alpha = np.mean(y[y > upper_alpha])',
        [],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_nfw.py",
        "The differential mass surface density DeltaSigma according to the analytical expression of Wright & Brainerd 2000, Equation 13.",
        ["Wright & Brainerd 2000"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_diemer23.py",
        'class ModelBProfile(GenericD22Profile): """ The Diemer 2023 (truncated exponential) density profile (Model B).',
        ["Diemer 2023"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/concentration.py",
        "Please see Appendix C in `Diemer & Kravtsov 2015 <http://scixplorer.org/abs/2015ApJ...799..108D>`__ for details.",
        ["Diemer & Kravtsov 2015"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/nonparametric.py",
        "This function implements the method of Happ et al (2019).",
        ["Happ et al (2019)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/visualization/lupton_rgb.py",
        "Notes ----- The Lupton et al 2004 algorithm is computed with the following steps:",
        ["Lupton et al 2004"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "For small samples, Harvey, Leybourne and Newbold (1997) propose rescaling the statistic by",
        ["Harvey, Leybourne and Newbold (1997)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/imputation/ros.py",
        "Helsel (John Wiley, 2005) to estimate the left-censored (non-detect) values of a dataset.",
        ["(John Wiley, 2005)"],
    ),
    (
        "pypi:gala-1.11.0:gala/potential/potential/builtin/core.py",
        "See `Long & Murali (1992) <http://adsabs.harvard.edu/abs/1992ApJ...397...44L>`_ for details.",
        ["Long & Murali (1992)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_nfw.py",
        "The NFW profile (`Navarro et al. 1997 <http://scixplorer.org/abs/1997ApJ...490..493N>`__) is defined by the density function",
        ["Navarro et al. 1997"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/statespace/dynamic_factor_mq.py",
        "Note that there was a typo in Banbura et al. (2011) for the formula applying the restrictions.",
        ["Banbura et al. (2011)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "P-values and critical values are obtained through regression surface approximation from MacKinnon 1994 and 2010.",
        ["MacKinnon 1994"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "Newey 1985b Lemma 1 does not impose correctly specified likelihood, but assumes it in the following.",
        ["Newey 1985b"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/mass_adv.py",
        "`More et al. 2015 <http://scixplorer.org/abs/2015ApJ...810...36M>`__ suggested two alternative mass definitions, namely the splashback radius and the mass within four scale radii.",
        ["More et al. 2015"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "Uses the Lacey & Cole 1993 inversion (see :func:`zfModelLacey93`) with the prefactor :math:`C(n_{\\\\rm eff}) = C_0 + C_1\\\\, n_{\\\\rm eff}(M)` and a default ``f_form = 0.5``.",
        ["Lacey & Cole 1993"],
    ),
    (
        "pypi:emcee-3.1.6:emcee/moves/stretch.py",
        'class StretchMove(RedBlueMove): """ A `Goodman & Weare (2010) <https://msp.org/camcos/2010/5-1/p04.xhtml>`_ "stretch move" with parallelization as described in `Foreman-Mackey et al. (2013) <https://arxiv.org/abs/1202.3665>`_.',
        ["Goodman & Weare (2010)", "Foreman-Mackey et al. (2013)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/othermod/betareg.py",
        "Working Papers in Economics and Statistics, 2011.",
        [],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/contingency.py",
        "The test is computed for different values of :math:`\\\\lambda`: 1, 2/3, 0, -1/2, -1 and -2 (Cressie and Read, 1984).",
        ["(Cressie and Read, 1984)"],
    ),
    (
        "pypi:gala-1.11.0:gala/potential/potential/builtin/special.py",
        "The disk model is taken from `Bovy (2015) <https://ui.adsabs.harvard.edu/#abs/2015ApJS..216...29B/abstract>`_ - if you use this potential, please also cite that work.",
        ["Bovy (2015)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/cosmology/cosmology.py",
        'In Colossus, this distance is referred to as the "transverse comoving distance" (e.g., Hogg 1999), but a number of other terms are used in the literature, e.g., "comoving angular diameter distance" (Dodelson 2003), "comoving coordinate distance" (Mo et al. 2010),or "angular size distance" (Peebles 1993).',
        ["(e.g., Hogg 1999)", "(Dodelson 2003)", "(Mo et al. 2010)", "(Peebles 1993)"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/circular.py",
        "Notes ----- Tranform data with multiple modes (known as axial data) to a unimodal sample, for the purpose of certain analysis such as computation of a mean resultant vector (see Berens 2009).",
        ["(see Berens 2009)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/imputation/mice.py",
        "TE Raghunathan et al.: 'A Multivariate Technique for Multiply Imputing Missing Values Using a Sequence of Regression Models', Survey Methodology, 2001.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/copper/data.py",
        'DESCRSHORT = """World Copper Market 1951-1975"""',
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/modeling/powerlaws.py",
        'class Schechter1D(Fittable1DModel): r""" Schechter luminosity function (`Schechter 1976 <https://ui.adsabs.harvard.edu/abs/1976ApJ...203..297S/abstract>`_), parameterized in terms of magnitudes.',
        ["Schechter 1976"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/rates.py",
        'Notes ----- The hypothesis tests for compare="ratio" are based on Gu et al 2018.',
        ["Gu et al 2018"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/oaxaca.py",
        'Jann "The Blinder-Oaxaca decomposition for linear regression models," The Stata Journal, 2008.',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/regression/quantile_regression.py",
        "- hsheather: Hall-Sheather (1988) - bofinger: Bofinger (1975) - chamberlain: Chamberlain (1994) max_iter : int, optional Maximum number of iterations. p_tol : float, optional Convergence tolerance for the iterative parameter estimates. **kwargs Additional keyword arguments, accepted for API compatibility.",
        ["Hall-Sheather (1988)", "Bofinger (1975)", "Chamberlain (1994)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/traits/neutrino.py",
        "The implementation typically uses the Komatsu fitting formula (Komatsu et al., 2011) for computational efficiency.",
        ["(Komatsu et al., 2011)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/proportion.py",
        "- 'wald', - 'agresti-caffo' - 'score' if correction is True, then this uses the degrees of freedom correction ``nobs / (nobs - 1)`` as in Miettinen Nurminen 1985",
        ["Miettinen Nurminen 1985"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "coint_t : float The t-statistic of unit-root test on residuals. pvalue : float MacKinnon's approximate, asymptotic p-value based on MacKinnon (1994). critical_values : ndarray Critical values for the test statistic at the 1 %, 5 %, and 10 % levels based on regression curve.",
        ["MacKinnon (1994)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/distributions/copula/depfunc_ev.py",
        'class AsymLogistic(PickandDependence): """asymmetric logistic model of Tawn 1988',
        ["Tawn 1988"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/nonparametric/bandwidths.py",
        "A = min(std(x, ddof=1), IQR/1.349) IQR = np.subtract.reduce(np.percentile(x, [75,25])) C = constant from Hansen (2009)",
        ["Hansen (2009)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/splashback.py",
        "This model was calibrated with Gamma computed according to the definition of `Diemer & Kravtsov 2014 <http://scixplorer.org/abs/2014ApJ...789....1D>`__.",
        ["Diemer & Kravtsov 2014"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/boxplots.py",
        "Examples -------- We use the American National Election Survey 1996 dataset, which has Party Identification of respondents as independent variable and (among other data) age as dependent variable.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/forecasting/theta.py",
        'class ThetaModel: r""" The Theta forecasting model of Assimakopoulos and Nikolopoulos (2000)',
        ["Assimakopoulos and Nikolopoulos (2000)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/coordinates/builtin_frames/supergalactic.py",
        '@format_doc(base_doc, components=doc_components, footer="") class Supergalactic(BaseCoordinateFrame): """ Supergalactic Coordinates (see Lahav et al. 2000, <https://ui.adsabs.harvard.edu/abs/2000MNRAS.312..166L>, and references therein). """',
        ["see Lahav et al. 2000"],
    ),
    (
        "pypi:gala-1.11.0:gala/potential/potential/builtin/core.py",
        "This model is taken from `Smith et al. (2015) <https://ui.adsabs.harvard.edu/abs/2015MNRAS.448.2934S/abstract>`_ - if you use this potential class, please also cite that work.",
        ["Smith et al. (2015)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/statespace/initialization.py",
        "Notes ----- As developed in Durbin and Koopman (2012), the state space recursions must be initialized for the first time period.",
        ["Durbin and Koopman (2012)"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/iv/results.py",
        'Notes ----- This is the statistic that Stock and Yogo (2005) tabulate critical values for, and Stata\'s ``ivreg2`` reports it as the "Cragg-Donald Wald F statistic".',
        ["Stock and Yogo (2005)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_einasto.py",
        "In this case, :math:`\\\\alpha` is determined automatically using the formula of `Gao et al. 2008 <http://scixplorer.org/abs/2008MNRAS.387..536G>`__,",
        ["Gao et al. 2008"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/traits/neutrino.py",
        "This method returns :math:`0.2271 f` using an analytical fitting formula (Komatsu et al., 2011), ApJS, 192, 18.",
        ["(Komatsu et al., 2011)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/concentration.py",
        "The original version of the ``diemer15`` model suffered from a small numerical error, a corrected set of parameters is given in `Diemer & Joyce 2019 <https://scixplorer.org/abs/2018arXiv180907326D/abstract>`__.",
        ["Diemer & Joyce 2019"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/covariance.py",
        "Uses explicit formula from Riani, Cerioli and Torti (2014) equation (3) which is also in Rocke and Woodroff (1996) Outliers equation (5).",
        ["Riani, Cerioli and Torti (2014)", "Rocke and Woodroff (1996)"],
    ),
    (
        "pypi:gala-1.11.0:gala/potential/potential/builtin/special.py",
        "The disk model is fit to the Eilers et al. 2019 rotation curve for the radial dependence, and the shape of the phase-space spiral in the solar neighborhood is used to set the vertical structure in Darragh-Ford et al. 2023.",
        ["Eilers et al. 2019", "Darragh-Ford et al. 2023"],
    ),
    ("pypi:statsmodels-0.15.0:statsmodels/robust/scale.py", 'Physica, Heidelberg, 1992. """', []),
    (
        "pypi:linearmodels-7.1:linearmodels/datasets/jobtraining/__init__.py",
        '""" Job training subsidies data of Holzer, Block, Cheatham and Knott (1993). """',
        ["Holzer, Block, Cheatham and Knott (1993)"],
    ),
    (
        "pypi:gala-1.11.0:gala/coordinates/oph.py",
        'class OphiuchusPriceWhelan16(coord.BaseCoordinateFrame): """ A Heliocentric spherical coordinate system defined by the orbit of the Ophiuchus stream, as described in Price-Whelan et al. 2016 (see: `<https://arxiv.org/abs/1601.06790>`_).',
        ["Price-Whelan et al. 2016"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/distributions/copula/archimedean.py",
        "explicit BV formulas copied from Joe 1997 p. 141 todo: check expm1 and log1p for improved numerical precision",
        ["Joe 1997"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/concentration.py",
        'See also -------- modelKlypin16fromNu: The model of Klypin et al 2016, based on peak height. """',
        ["Klypin et al 2016"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "The confidence intervals use the asymptotic standard deviation 1/sqrt(n), following Wei (2006, Section 11.2) [1]_.",
        ["Wei (2006, Section 11.2)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/interp/denton.py",
        '""" Examples from the Denton 1971 paper k = 4 m = 5 n = m*k',
        ["Denton 1971"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/concentration.py",
        "The universal prediction of the Diemer & Kravtsov 2014 model for a given peak height, power spectrum slope, and statistic.",
        ["Diemer & Kravtsov 2014"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/nonparametric.py",
        "See for example Conroy (2012) [4]_ and Divine et al (2018) [5]_.",
        ["Conroy (2012)", "Divine et al (2018)"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/datasets/wage_panel/__init__.py",
        '""" Panel of wages and union membership of Vella and Verbeek (1998). """',
        ["Vella and Verbeek (1998)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/statespace/kalman_filter.py",
        'timing_options = [ "timing_init_predicted", "timing_init_filtered" ] timing_init_predicted = OptionWrapper("filter_timing", TIMING_INIT_PREDICTED) """(bool) Flag for the default timing convention (Durbin and Koopman, 2012)""" timing_init_filtered = OptionWrapper("filter_timing", TIMING_INIT_FILTERED) """(bool) Flag for the alternate timing convention (Kim and Nelson, 2012)"""',
        ["(Durbin and Koopman, 2012)", "(Kim and Nelson, 2012)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/visualization/lupton_rgb.py",
        "Notes ----- Based on the asinh stretch presented in Lupton et al. 2004 (https://ui.adsabs.harvard.edu/abs/2004PASP..116..133L).",
        ["Lupton et al. 2004"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/duration/survfunc.py",
        "The procedure is analogous to that described in Zeng (2004) for estimation of the marginal survival function.",
        ["Zeng (2004)"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/iv/results.py",
        "With one endogenous regressor the effective F-statistic of Olea and Pflueger (2013), which is not implemented here, is better founded.",
        ["Olea and Pflueger (2013)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/cosmology/power_spectrum.py",
        "This function computes the `Eisenstein & Hu 1998 <http://scixplorer.org/abs/1998ApJ...496..605E>`__ approximation to the transfer function at a scale k.",
        ["Eisenstein & Hu 1998"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/bayesian.py",
        "The one-sided version is described in eq. 27 and 28 of Ly et al, 2016.",
        ["Ly et al, 2016"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/norms.py",
        "DC Montgomery, EA Peck. 'Introduction to Linear Regression Analysis', John Wiley and Sons, Inc., New York, 2001.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/genmod/generalized_estimating_equations.py",
        'The "robust" covariance type is the standard "sandwich estimator" (e.g., Liang and Zeger (1986)).',
        ["Liang and Zeger (1986)"],
    ),
    (
        "pypi:emcee-3.1.6:emcee-3.1.6.dist-info/METADATA",
        "emcee is a stable, well tested Python implementation of the affine-invariant ensemble sampler for Markov chain Monte Carlo (MCMC) proposed by `Goodman & Weare (2010) <http://cims.nyu.edu/~weare/papers/d13.pdf>`_.",
        ["Goodman & Weare (2010)"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/nonparametric.py",
        "It was first introduced by McGraw and Wong (1992) [3]_.",
        ["McGraw and Wong (1992)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/timeseries/periodograms/lombscargle/_statistics.py",
        "All expressions used here are adapted from Table 1 of Baluev 2008 [1]_.",
        ["Baluev 2008"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/imputation/mice.py",
        "JL Schafer: 'Multiple Imputation: A Primer', Stat Methods Med Res, 1999.",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/core.py",
        "Many of these adapted from Hogg 1999, astro-ph/9905116 and Linder 2003, PRL 90, 91301",
        ["Hogg 1999", "Linder 2003"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "Haloes with zf <= 0 are unphysical: the van den Bosch 2002 alpha = (zf*1.43)^-1.05 is undefined. alpha = np.full(zf_arr.shape, np.nan) valid_zf = zf_arr > 0 alpha[valid_zf] = (zf_arr[valid_zf] * 1.43)**(-1.05) mz = M0_arr[:, None] * np.exp(-alpha[:, None] * z_arr[None, :])",
        ["van den Bosch 2002"],
    ),
    ("pypi:emcee-3.1.6:emcee-3.1.6.dist-info/METADATA", "Copyright 2010-2021 Dan Foreman-Mackey and contributors.", []),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "Newey uses the generalized information matrix equality in the MLE version of Newey (1985b).",
        ["Newey (1985b)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/io/ascii/sextractor.py",
        "SExtractor is a package for faint-galaxy photometry (Bertin & Arnouts 1996, A&A Supp. 317, 393.)",
        ["Bertin & Arnouts 1996"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/genmod/generalized_estimating_equations.py",
        'The "bias reduced" estimator of Mancl and DeRouen (Biometrics, 2001) reduces the downward bias of the robust estimator.',
        ["Mancl and DeRouen (Biometrics, 2001)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/flrw/base.py",
        'This method returns :math:`0.2271 f` using an analytical fitting formula given in Komatsu et al. 2011, ApJS 192, 18. """ Note that there is also a scalar-z-only cython implementation of this in scalar_inv_efuncs.pyx, so if you find a problem in this you need to update there too.',
        ["Komatsu et al. 2011"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/regressionplots.py",
        "TODO: could be a method of results TODO: see Cook et al (1998) for a more general definition",
        ["Cook et al (1998)"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/iv/model.py",
        "This is the estimator that is called JIVE1 by Angrist, Imbens and Krueger (1999).",
        ["Angrist, Imbens and Krueger (1999)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/adfvalues.py",
        "These are the new estimates from MacKinnon 2010 the first axis is N -1 the second axis is 1 %, 5 %, 10 % the last axis is the coefficients",
        ["MacKinnon 2010"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/norms.py",
        "References ---------- PJ Huber.  'Robust Statistics' John Wiley and Sons, Inc., New York, 1981.",
        [],
    ),
    (
        "pypi:gala-1.11.0:gala/coordinates/pal13.py",
        'class Pal13Shipp20(coord.BaseCoordinateFrame): """ A Heliocentric spherical coordinate system defined by the orbit of the Pal 13 stream by Shipp et al. (2020).',
        ["Shipp et al. (2020)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "Parameters ---------- coint_t : float The t-statistic of unit-root test on residuals. pvalue : float MacKinnon's approximate, asymptotic p-value based on MacKinnon (1994). critical_values : ndarray Critical values for the test statistic at the 1 %, 5 %, and 10 % levels based on regression curve.",
        ["MacKinnon (1994)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_outer.py",
        'class OuterTermInfalling(OuterTerm): """ Infalling term according to Diemer 2023, modeled as a power law with smooth transition.',
        ["Diemer 2023"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/coordinates/builtin_frames/fk4.py",
        'Parameters ---------- equinox : Time object The equinox for which to compute the e-terms """ Constant of aberration at J2000; from Explanatory Supplement to the Astronomical Almanac (Seidelmann, 2005). k = 0.0056932  # in degrees (v_earth/c ~ 1e-4 rad ~ 0.0057 deg)',
        ["(Seidelmann, 2005)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/engel/data.py",
        'COPYRIGHT = """This is public domain.""" TITLE = """Engel (1857) food expenditure data""" SOURCE = """ This dataset was used in Koenker and Bassett (1982) and distributed alongside the ``quantreg`` package for R.',
        ["Engel (1857)", "Koenker and Bassett (1982)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/concentration.py",
        'See also -------- modelKlypin16fromM: The model of Klypin et al 2016, based on mass. """',
        ["Klypin et al 2016"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/coordinates/builtin_frames/galactic.py",
        "These are *not* from Reid & Brunthaler 2004 - instead, they were derived by doing: >>> FK4NoETerms(ra=192.25*u.degree, dec=27.4*u.degree).transform_to(FK5()) This gives better consistency with other codes than using the values from Reid & Brunthaler 2004 and the best self-consistency between FK5 -> Galactic and FK5 -> FK4 -> Galactic.",
        ["Reid & Brunthaler 2004", "Reid & Brunthaler 2004"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_einasto.py",
        "The Einasto profile (`Einasto 1965 <http://scixplorer.org/abs/1965TrAlm...5...87E>`__) is defined by the function",
        ["Einasto 1965"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/discrete/_diagnostics_count.py",
        "The test is implemented following Tang and Tang [1]_ equ. (12) which is based on the test derived in He et al 2019 [2]_.",
        ["He et al 2019"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_hernquist.py",
        "The Hernquist profile (`Hernquist 1990 <http://scixplorer.org/abs/1990ApJ...356..359H>`__) is defined by the density function",
        ["Hernquist 1990"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/multivariate.py",
        '""" using Stata formulas where cov_sample use nobs in denominator Bartlett 1954 has fewer terms cov = array_like(cov, "cov", ndim=2) nobs = int_like(nobs, "nobs") cov_null = array_like(cov_null, "cov_null", ndim=2)',
        ["Bartlett 1954"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "This follows the GMM version in Newey 1985a, not the MLE version in Newey 1985b.",
        ["Newey 1985a", "Newey 1985b"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/mosaicplot.py",
        "Michael Friendly, York University, Psychology Department Proceedings of the Statistical Graphics Section, 1992, 61-68.",
        [],
    ),
    (
        "pypi:colossus-1.4.0:colossus/lss/bias.py",
        "This bias model is derived using the peak-background split logic of Sheth & Tormen 1999, but with the updated and z-dependent best-fit parameters derived for the mass function.",
        ["Sheth & Tormen 1999"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/mass_adv.py",
        "See `More et al. 2015 <http://scixplorer.org/abs/2015ApJ...810...36M>`__ for the rationale behind this definition.",
        ["More et al. 2015"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/nonparametric/kde.py",
        "step 2 compute FFT of the weights, using Munro (1976) FFT convention y = forrt(binned)",
        ["Munro (1976)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/flrw/w0wzcdm.py",
        '>>> cosmo.comoving_distance(0.5) <Quantity 1849.74726272 Mpc> """',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/genmod/families/family.py",
        "The name 'cox_snell' is idiosyncratic and is simply used for convenience following the approach suggested in Cox and Snell (1968).",
        ["Cox and Snell (1968)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/concentration.py",
        "The implementation follows equations 12 to 22 in Prada et al. 2012.",
        ["Prada et al. 2012"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_nfw.py",
        "The case r = rs is solved in Lokas & Mamon (2001), but in their notation the density at this radius looks somewhat complicated.",
        ["Lokas & Mamon (2001)"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/multicomp.py",
        "Less conservative methods are also included such as Sidak (1967) (``'sidak'``), Holm (1979) (``'holm'``), Benjamini & Hochberg (1995) (``'fdr_bh'``), and Benjamini & Yekutieli (2001) (``'fdr_by'``), respectively.",
        ["Sidak (1967)", "Holm (1979)", "Benjamini & Hochberg (1995)", "Benjamini & Yekutieli (2001)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/lss/mass_function.py",
        "This model corrects the `Sheth & Tormen 1999 <http://scixplorer.org/abs/1999MNRAS.308..119S>`__ model at high masses, the functional form is given in Equation 9.",
        ["Sheth & Tormen 1999"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/timeseries/periodograms/lombscargle/implementations/utils.py",
        "Now use legendre polynomial weights to populate the results array; This is an efficient recursive implementation (See Press et al. 1989) result = np.zeros(N, dtype=y.dtype)",
        ["(See Press et al. 1989)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_dk14.py",
        'class DK14Profile(profile_base.HaloDensityProfile): """ The Diemer & Kravtsov 2014 density profile.',
        ["Diemer & Kravtsov 2014"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/multivariate/factor.py",
        "If method='ml', the factors are rotated to satisfy condition IC3 of Bai and Li (2012).",
        ["Bai and Li (2012)"],
    ),
    (
        "pypi:dynesty-3.1.0:dynesty-3.1.0.dist-info/METADATA",
        "If you use this package in your research, please cite **both** of these references: * The original paper [Speagle (2020)](https://ui.adsabs.harvard.edu/abs/2020MNRAS.493.3132S/abstract) * The Python implementation [Koposov et al. (2024)](https://doi.org/10.5281/zenodo.3348367) (the citation information is at the bottom right of the linked page)",
        ["Speagle (2020)", "Koposov et al. (2024)"],
    ),
    (
        "pypi:gala-1.11.0:gala/integrate/pyintegrators/ruth4.py",
        "This integrator implements a fourth-order symplectic integration scheme developed by Ruth (1983).",
        ["Ruth (1983)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/time/utils.py",
        "Using the procedure of Shewchuk, 1997, Discrete & Computational Geometry 18(3):305-363 http://www.cs.berkeley.edu/~jrs/papers/robustr.pdf",
        ["Shewchuk, 1997"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/effsize.py",
        "The Cohen :math:`d_z` (``eftype='cohen_dz'``) uses the standard deviation of the *difference scores* (Lakens, 2013):",
        ["(Lakens, 2013)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/statespace/mlemodel.py",
        "Notes ----- This method is from Harvey (1989), section 3.4.5",
        ["Harvey (1989)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/nonparametric.py",
        "Notes ----- The implementation is based on the appendix of Munzel and Hauschke (2003) with the addition of ``ddof`` so that the results match the general function `rank_compare_2indep`.",
        ["Munzel and Hauschke (2003)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/multivariate/factor.py",
        "Notes ----- Under ML estimation, the default rotation (used for `loadings`) is condition IC3 of Bai and Li (2012).",
        ["Bai and Li (2012)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/regression/mixed_linear_model.py",
        "All the likelihood, gradient, and Hessian calculations closely follow Lindstrom and Bates 1988, adapted to support variance components.",
        ["Lindstrom and Bates 1988"],
    ),
    (
        "pypi:emcee-3.1.6:emcee/moves/de.py",
        "This `Differential evolution proposal <http://www.stat.columbia.edu/~gelman/stuff_for_blog/cajo.pdf>`_ is implemented following `Nelson et al. (2013) <https://doi.org/10.1088/0067-0049/210/1/11>`_.",
        ["Nelson et al. (2013)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/coordinates/builtin_frames/galactocentric.py",
        "Additional parameter sets may be registered, for instance to use the Dehnen & Binney (1998) measurements of the solar motion.",
        ["Dehnen & Binney (1998)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "The main articles on which the functions are directly based upon, are Boos 1992, Tauchen 1985 and Newey 1985a.",
        ["Boos 1992", "Tauchen 1985", "Newey 1985a"],
    ),
    (
        "pypi:gala-1.11.0:gala/coordinates/jhelum.py",
        'class JhelumBonaca19(coord.BaseCoordinateFrame): """ A Heliocentric spherical coordinate system defined by the orbit of the Jhelum stream, as described in Bonaca et al. 2019.',
        ["Bonaca et al. 2019"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_nfw.py",
        "This function uses the analytical formula of `Lokas & Mamon 2001 <http://scixplorer.org/abs/2001MNRAS.321..155L>`__ rather than numerical integration.",
        ["Lokas & Mamon 2001"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_inference_tools.py",
        "method 2 Li, Tang, Wong 2014 low1, upp1 = ci1 low2, upp2 = ci2 term1 = upp2 * (2 * stat2 - upp2) term2 = low2 * (2 * stat2 - low2) low = (prod - np.sqrt(prod**2 - term1 * low1 * (2 * stat1 - low1)) ) / term1 upp = (prod + np.sqrt(prod**2 - term2 * upp1 * (2 * stat1 - upp1)) ) / term2",
        ["Li, Tang, Wong 2014"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/mosaicplot.py",
        "Michael Friendly, York University, Psychology Department Journal of the american statistical association March 1994, Vol. 89, No. 425, Theory and Methods",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "Returns ------- DieboldMarianoResult A result object containing the DM test statistic, its p-value, and the Harvey et al. (1997) adjustment factor, if applicable.",
        ["Harvey et al. (1997)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_diemer23.py",
        "The `Diemer (2022b) <http://scixplorer.org/abs/2014ApJ...789....1D>`__ profile was designed to fit the orbiting component of dark matter halos, even at large radii where the infalling component comes to dominate.",
        ["Diemer (2022b)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/multivariate.py",
        "Those correspond to the formula collection in Bartlett 1954 for several of them.",
        ["Bartlett 1954"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/iv/common.py",
        "It is the statistic that Stock and Yogo (2005) tabulate critical values for.",
        ["Stock and Yogo (2005)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/libqsturng/qsturng_.py",
        "It is more efficient then the Copenhaver & Holland (1988) algorithm (used by the _qtukey_ R function) although it requires storing the A table in memory. (q distribution) approximations in Python.",
        ["Copenhaver & Holland (1988)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "A known residual bias of order O(1/n^2) remains uncorrected; an iterated jackknife (Schucany, Gray & Owen 1971) would address this at added computational cost.",
        ["(Schucany, Gray & Owen 1971)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/nonparametric/_kernel_base.py",
        "In release 0.17.0 or after January 2028, whichever comes sooner, using None will initialize a new numpy.random.default_rng using system entropy.",
        [],
    ),
    (
        "pypi:colossus-1.4.0:colossus/lss/mass_function.py",
        "The model uses the same functional form as the `Sheth & Tormen 1999 <http://scixplorer.org/abs/1999MNRAS.308..119S>`__, but with different parameters and a fixed collapse overdensity :math:`\\\\delta_{\\\\rm c} = 1.673`.",
        ["Sheth & Tormen 1999"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/stackloss/data.py",
        'DESCRLONG = """The stack loss plant data of Brownlee (1965) contains 21 days of measurements from a plant\'s oxidation of ammonia to nitric acid.',
        ["Brownlee (1965)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/rates.py",
        'The hypothesis test for compare="diff" are mainly based on Ng et al 2007 and ...',
        ["Ng et al 2007"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "Additionally, non-overlapping block placement introduces some sensitivity to the arbitrary choice of block boundaries; overlapping/moving-block schemes (Kunsch 1989) would reduce this.",
        ["(Kunsch 1989)"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/circular.py",
        "Notes ----- The Rayleigh test asks how large the resultant vector length R must be to indicate a non-uniform  distribution (Fisher 1995).",
        ["(Fisher 1995)"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/datasets/munnell/__init__.py",
        "Productivity and Public Investment.” New England Economic Review, 1990, pp. 3-22.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/sandwich_covariance.py",
        '[5] MacKinnon, Nielsen & Webb, "Fast and Reliable Jackknife and Bootstrap Methods for Cluster-Robust Inference", Queens University Working Paper No. 1485 (October 2022)',
        [],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "Bera & Diemer 2026 best-fit coefficients BERA26_PARAMS = (1.1427, 1.2116, -1.4389, -0.0016, 1.8303, -0.5056)",
        ["Bera & Diemer 2026"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/nonparametric/kde.py",
        "This follows Silverman (1982) with changes suggested by Jones and Lotwick (1984).",
        ["Silverman (1982)", "Jones and Lotwick (1984)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "Yung et al. 2025 MAR fit coefficients (quadratics in a = 1/(1+z)): mass exponent alpha and log10(beta).",
        ["Yung et al. 2025"],
    ),
    (
        "pypi:gala-1.11.0:gala/coordinates/sgr.py",
        'class SagittariusVasiliev21(coord.BaseCoordinateFrame): """ A Heliocentric, right-handed spherical coordinate system defined by the orbit of the Sagittarius dwarf galaxy, as described in Vasiliev et al. (2021): https://ui.adsabs.harvard.edu/abs/2021MNRAS.501.2279V/abstract',
        ["Vasiliev et al. (2021)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/io/ascii/mrt.py",
        ':Copyright: Smithsonian Astrophysical Observatory (2021) :Author: Tom Aldcroft (aldcroft@head.cfa.harvard.edu), \\ Suyog Garg (suyog7130@gmail.com) """',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/stattools.py",
        'Vandervieren, "An adjusted boxplot for skewed distributions" Computational Statistics & Data Analysis, vol. 52, pp. 5186-5201, August 2008. """',
        [],
    ),
    (
        "pypi:dynesty-3.1.0:dynesty/dynesty.py",
        'The dynamic nested sampling dynamic_refs = [("Higson et al. (2019)", "doi.org/10.1007/s11222-018-9844-0")]',
        ["Higson et al. (2019)"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/nonparametric.py",
        "Pingouin uses a brute-force version of the formula given by Vargha and Delaney 2000 [4]_:",
        ["Vargha and Delaney 2000"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/covariance.py",
        "This implements the outlier cutoff of Gervini and Yohai 2002 for use in efficient reweighting.",
        ["Gervini and Yohai 2002"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/stats/funcs.py",
        "Uses the set of four formulas described in Paltani 2004; they report the resulting function never underestimates the false positive probability but can be a bit high in the N=40..50 range. (They quote a factor 1.5 at the 1e-7 level.)",
        ["Paltani 2004"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/proportion.py",
        "- 'log': wald test using log transformation - 'log-adjusted': wald test using log transformation, adds 0.5 to counts - 'score': if correction is True, then this uses the degrees of freedom correction ``nobs / (nobs - 1)`` as in Miettinen Nurminen 1985",
        ["Miettinen Nurminen 1985"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/parametric.py",
        "Calculating effect sizes (see Bakeman 2005; Lakens 2013) In one-way ANOVA, partial eta2 = eta2 = generalized eta2 Similar to (fval * ddof1) / (fval * ddof1 + ddof2) np2 = ssbetween / (ssbetween + sserror)  # = ssbetween / sstotal Omega-squared o2 = (ddof1 * (msbetween - mserror)) / (sstotal + mserror)",
        ["(see Bakeman 2005; Lakens 2013)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/gof.py",
        "However, for the range of more extreme values of the power divergence parameter, this power is not a very good approximation for samples of small to medium size (Drost et al. 1989)",
        ["(Drost et al. 1989)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/libqsturng/make_tbls.py",
        "The values for p in [.5, .75, .9, .95, .975, .99, .995, .999] were pulled from: http://www.stata.com/stb/stb46/dm64/sturng.pdf Values for p in [.1, .675, .8, .85] were calculated using R's qtukey function the table was programmed by Gleason and extends Harter's (1960) table using the Copenhaver & Holland (1988) algorithm (C&H).",
        ["Harter's (1960)", "Copenhaver & Holland (1988)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/statespace/tests/results/results_kalman_filter.py",
        "There was an error in the loglikelihood computation in the GAUSS code from Kim and Nelson for the Clark 1989 model, omitting the exponent term on ``2 pi''.",
        ["Clark 1989"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/base/_penalties.py",
        "Parameterization follows Boo, Johnson, Li and Tan 2011.",
        ["Boo, Johnson, Li and Tan 2011"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/covariance.py",
        "Notes ----- If the shrinkage factor is None, then a plugin is used as described in Chen and Wiesel 2011.",
        ["Chen and Wiesel 2011"],
    ),
    (
        "pypi:emcee-3.1.6:emcee/moves/red_blue.py",
        'class RedBlueMove(Move): """ An abstract red-blue ensemble move with parallelization as described in `Foreman-Mackey et al. (2013) <https://arxiv.org/abs/1202.3665>`_.',
        ["Foreman-Mackey et al. (2013)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/io/ascii/core.py",
        ':Copyright: Smithsonian Astrophysical Observatory (2010) :Author: Tom Aldcroft (aldcroft@head.cfa.harvard.edu) """',
        [],
    ),
    (
        "pypi:dynesty-3.1.0:dynesty/utils.py",
        'Notes ----- Implements the systematic resampling method described in `Hol, Schon, and Gustafsson (2006) <doi:10.1109/NSSPW.2006.4378824>`_. """',
        ["Hol, Schon, and Gustafsson (2006)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/graphics/functional.py",
        "In release 0.17.0 or after January 2028, whichever comes sooner, using None will initialize a new numpy.random.default_rng using system entropy. kernel_seed : int, array_like of int, numpy.random.Generator, or numpy.random.RandomState, optional .. deprecated:: 0.15",
        [],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/correlation.py",
        "From `Bakdash and Marusich (2017) <https://doi.org/10.3389/fpsyg.2017.00456>`_:",
        ["Bakdash and Marusich (2017)"],
    ),
    (
        "pypi:emcee-3.1.6:emcee/moves/de.py",
        "In this way, sigma is the standard deviation of the distribution of gamma, instead of the standard deviation of the distribution of the proposal as proposed by Ter Braak (2006).",
        ["Ter Braak (2006)"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/regression.py",
        'For more details see Hayes and Rockwood 2017 indirect["pval"].append(_pval_from_bootci(ab_estimates[:, j], indirect["coef"][j])) indirect["sig"].append("Yes" if indirect["pval"][j] < alpha else "No")',
        ["Hayes and Rockwood 2017"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/utils/constants.py",
        'DELTA_COLLAPSE = 1.68647 """The linear overdensity threshold for halo collapse according to the spherical top-hat collapse model (`Gunn & Gott 1972 <http://scixplorer.org/abs/1972ApJ...176....1G>`__).',
        ["Gunn & Gott 1972"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/discrete/_diagnostics_count.py",
        "This is a special case of test_poisson_zeroinflation derived by van den Broek 1995.",
        ["van den Broek 1995"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/covariance.py",
        "See Feingold and Drton 2014 for the motivation using weights based on the multivariate t distribution.",
        ["Feingold and Drton 2014"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/time/formats.py",
        "Translations between deprecated FITS timescales defined by Rots et al. 2015, A&A 574:A36, and timescales used here.",
        ["Rots et al. 2015"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/duration/survfunc.py",
        "See Zeng et al. (2004) for details.",
        ["Zeng et al. (2004)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/meta_analysis.py",
        "implementation follows Kacker 2004 and DerSimonian and Kacker 2007 eq. 6",
        ["Kacker 2004", "DerSimonian and Kacker 2007"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/correlation_tools.py",
        "Borsdorf, Higham and Raydan (2010) compared several methods for this problem and found the spectral projected gradient (SPG) method (used here) to perform best.",
        ["Borsdorf, Higham and Raydan (2010)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/multivariate/factor.py",
        "See Bai and Li (2012) for conditions under which the standard errors are valid.",
        ["Bai and Li (2012)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "The Giocoli+12 barrier :math:`\\\\delta_c(z_f) = \\\\delta_c(z) + \\\\tilde\\\\omega \\\\sqrt{\\\\sigma^2(fM) - \\\\sigma^2(M)}` with :math:`\\\\tilde\\\\omega = \\\\sqrt{2 \\\\ln(\\\\alpha_f + 1)}` is the Lacey & Cole 1993 barrier with :math:`C = \\\\tilde\\\\omega / \\\\sqrt{2} = \\\\sqrt{\\\\ln(\\\\alpha_f + 1)}`, so this routine just forwards to :func:`zfModelLacey93` with the appropriate prefactor.",
        ["Lacey & Cole 1993"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/grunfeld/data.py",
        'DESCRSHORT = """Grunfeld (1950) Investment Data for 11 U.S.',
        ["Grunfeld (1950)"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/datasets/fringe/__init__.py",
        '""" Fringe benefits and earnings data of Vella (1993). """',
        ["Vella (1993)"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/reliability.py",
        "Pingouin follows the notation of Liljequist et al. (2019) [2]_, based on McGraw and Wong (1996) [3]_.",
        ["Liljequist et al. (2019)", "McGraw and Wong (1996)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "The main-progenitor formation redshift of Giocoli, Tormen & Sheth 2012 (their Eqs. 9, 11, 13).",
        ["Giocoli, Tormen & Sheth 2012"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/vector_ar/svar_model.py",
        'References ---------- Hamilton (1994) Time Series Analysis """',
        ["Hamilton (1994)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/sandwich_covariance.py",
        "Miller, “Robust Inference With Multiway Clustering,” Journal of Business and Economic Statistics 29 (April 2011): 238-249.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/regression/recursive_ls.py",
        "The cusum6 behavior does not seem to be consistent with Brown et al. (1975); it is likely they did that because they needed three initial observations to get the initial OLS estimates, whereas we do not need to do that.",
        ["Brown et al. (1975)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_diemer23.py",
        '""" This module implements the Diemer 2022b form of the density profile.',
        ["Diemer 2022b"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/cosmology/cosmology.py",
        "The general case of a user-defined function is given in Linder 2003 Equation 5.",
        ["Linder 2003"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/datasets/birthweight/__init__.py",
        '""" Birth weight and maternal smoking data of Mullahy (1997). """',
        ["Mullahy (1997)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/scotland/data.py",
        'COPYRIGHT = """Used with express permission from the original author, who retains all rights.""" TITLE = "Taxation Powers Vote for the Scottish Parliament 1997" SOURCE = """ Jeff Gill\'s *Generalized Linear Models: A Unified Approach*',
        [],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "Eq. (19) of van den Bosch et al. 2014 with adjustable G^gamma exponent.",
        ["van den Bosch et al. 2014"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/regression/recursive_ls.py",
        "The calculation in this package is consistent with the description of Brown et al. (1975)",
        ["Brown et al. (1975)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_einasto.py",
        'class EinastoProfile(profile_base.HaloDensityProfile): """ The Einasto 1965 density profile.',
        ["Einasto 1965"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/regression.py",
        "See `Groemping 2006 <https://www.jstatsoft.org/article/view/v017i01>`_ for more details.",
        ["Groemping 2006"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/imputation/mice.py",
        'A Gelman et al.: \'Multiple Imputation with Diagnostics (mi) in R: Opening Windows into the Black Box\', Journal of Statistical Software, 2009. """',
        [],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_diemer23.py",
        "Thus, `Diemer 2022b <http://scixplorer.org/abs/2014ApJ...789....1D>`__ also proposed a corrected variant called Model B, which can be created using the :class:`ModelBProfile` class.",
        ["Diemer 2022b"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "The output of the model of McBride et al. 2009 depends on the ``statistic`` keyword argument.",
        ["McBride et al. 2009"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/base/_penalties.py",
        "This follows Fan and Li 2001 equation (3.7).",
        ["Fan and Li 2001"],
    ),
    (
        "pypi:emcee-3.1.6:emcee/moves/de_snooker.py",
        "Based on `Ter Braak & Vrugt (2008) <http://link.springer.com/article/10.1007/s11222-008-9104-9>`_.",
        ["Ter Braak & Vrugt (2008)"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/reliability.py",
        "It follows the practical guidance of Liljequist et al. (2019) [2]_, which suggests calculating all ICC types together rather than picking a single statistical model upfront.",
        ["Liljequist et al. (2019)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/statespace/tests/results/results_kalman_filter.py",
        "Datasets produced using GAUSS code described in Kim and Nelson (1999) and found at http://econ.korea.ac.kr/~cjkim/SSMARKOV.htm Accessed 2013-11-18 Code was run using OxGauss 7.",
        ["Kim and Nelson (1999)"],
    ),
    (
        "pypi:gala-1.11.0:gala/coordinates/sgr.py",
        'class SagittariusLaw10(coord.BaseCoordinateFrame): """ A Heliocentric spherical coordinate system defined by the orbit of the Sagittarius dwarf galaxy, as described in Law & Majewski (2010): http://adsabs.harvard.edu/abs/2010ApJ...714..229L',
        ["Law & Majewski (2010)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/regression/quantile_regression.py",
        "The original IRLS function was written for Matlab by Shapour Mohammadi, University of Tehran, 2008 (shmohammadi@gmail.com), with some lines based on code written by James P.",
        [],
    ),
    (
        "pypi:gala-1.11.0:gala/dynamics/actionangle/analyticactionangle.py",
        'This transformation is analytic and can be used as a "toy potential" in the Sanders & Binney (2014) formalism for computing action-angle coordinates in any potential.',
        ["Sanders & Binney (2014)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/copper/data.py",
        'COPYRIGHT = """Used with express permission from the original author, who retains all rights.""" TITLE = "World Copper Market 1951-1975 Dataset" SOURCE = """ Jeff Gill\'s *Generalized Linear Models: A Unified Approach*',
        [],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_einasto.py",
        "In the latter case, the user can specify alpha or let the constructor compute it from its tight correlation with peak height (`Gao et al. 2008 <http://scixplorer.org/abs/2008MNRAS.387..536G>`__); a cosmology must be set before instantiating the profile object this way.",
        ["Gao et al. 2008"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/lss/mass_function.py",
        "Other authors have taken the formula literally, e.g. `Watson et al. 2013 <http://scixplorer.org/abs/2013MNRAS.433.1230W>`__.",
        ["Watson et al. 2013"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/statespace/kalman_smoother.py",
        "SMOOTH_UNIVARIATE = 0x08 Univariate Kalman smoother, as presented in Durbin and Koopman, 2012 chapter 6, except with modified Bryson-Frazier timing.",
        ["Durbin and Koopman, 2012"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/cosmology/cosmology.py",
        "The default `Eisenstein & Hu 1998 <http://scixplorer.org/abs/1998ApJ...496..605E>`__ approximation is accurate to about 5%, and the interpolation introduces errors significantly smaller than that.",
        ["Eisenstein & Hu 1998"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/oneway.py",
        "See Steiger 2004 and references cited in it.",
        ["Steiger 2004"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/grunfeld/data.py",
        'The source for the data was the original 11-firm data set from Grunfeld\'s Ph.D. thesis recreated by Kleiber and Zeileis (2008) "The Grunfeld Data at 50".',
        ["Kleiber and Zeileis (2008)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/proportion.py",
        'status testing: compared to example in Nam 2009 internal polynomial coefficients in calculation correspond at around 4 decimals confidence interval agrees only at 2 decimals """ x11, x10, x01, x00 = np.ravel(table) n = np.sum(table)  # nobs p10, p01 = x10 / n, x01 / n p1 = (x11 + x10) / n p0 = (x11 + x01) / n q00 = 1 - x00 / n',
        ["Nam 2009"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/norms.py",
        'R Venables, B Ripley. \'Modern Applied Statistics in S\' Springer, New York, 2002. """',
        [],
    ),
    ("pypi:statsmodels-0.15.0:statsmodels/datasets/co2/data.py", "Period of Record: March 1958 - December 2001", []),
    (
        "pypi:colossus-1.4.0:colossus/defaults.py",
        'HALO_PROFILE_OUTER_D22_DELTA_MAX = 100.0 """The default asymptotic overdensity of the infalling term at the halo center in the formulation of Diemer 2023."""',
        ["Diemer 2023"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_hernquist.py",
        '""" This module implements the profile form of Hernquist (1990).',
        ["Hernquist (1990)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/gam/smooth_basis.py",
        'class CubicSplines(AdditiveGamSmoother): """ additive smooth components using cubic splines as in Wood 2006',
        ["Wood 2006"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/coint_tables.py",
        "Notes ----- The values returned by this function were generated using a method described in MacKinnon (1996), using his FORTRAN program johdist.f.",
        ["MacKinnon (1996)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/stats/funcs.py",
        "See `Kraft, Burrows, and Nousek (1991) <https://ui.adsabs.harvard.edu/abs/1991ApJ...374..344K>`_ for further details.",
        ["Kraft, Burrows, and Nousek (1991)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus-1.4.0.dist-info/METADATA",
        "If you use Colossus for a publication, please cite the code paper (`Diemer 2018 <https://scixplorer.org/abs/2018ApJS..239...35D/abstract>`__).",
        ["Diemer 2018"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/nonparametric.py",
        "Davis, A new distribution-free quantile estimator, Biometrika, Volume 69, Issue 3, December 1982, Pages 635–640, https://doi.org/10.1093/biomet/69.3.635",
        [],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/nonparametric.py",
        "Effect size 2: rank biserial correlation (Wendt 1972) uval_y = x.shape[0] * y.shape[0] - uval_x rbc = 1 - (2 * uval_y) / diff.size  # diff.size = x.size * y.size",
        ["(Wendt 1972)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/oneway.py",
        'If ``method="bf"``, then `pvalue` is based on corrected degrees of freedom following Mehrotra 1997, and `pvalue2`, `df2` and `df_num2` hold the Brown-Forsythe 1974 alternative; otherwise those three are None.',
        ["Mehrotra 1997", "Brown-Forsythe 1974"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "This is a generic class based on Tauchen 1985",
        ["Tauchen 1985"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/timeseries/periodograms/lombscargle/implementations/utils.py",
        "Notes ----- Implements the algorithm from Ruiz-Antolin & Townsend (2018) using a low-rank approximation of the NUFFT kernel.",
        ["Ruiz-Antolin & Townsend (2018)"],
    ),
    ("pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py", "New York: Oxford University Press, 2004.", []),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/oneway.py",
        'If ``use_var="bf"``, then `pvalue` is based on corrected degrees of freedom following Mehrotra 1997, and `pvalue2`, `df2` and `df_num2` hold the Brown-Forsythe 1974 alternative; otherwise those three are None.',
        ["Mehrotra 1997", "Brown-Forsythe 1974"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/resistant_linear_model.py",
        "Notes ----- This estimator combines the method of Fast-S regression (Saliban-Barrera et al 2006) using starting sets similar to the deterministic estimation of multivariate location and scatter DetS and DetMM of Hubert et al (2012).",
        ["(Saliban-Barrera et al 2006)", "Hubert et al (2012)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/profile_dk14.py",
        "Finally, the parameter that determines how quickly the Einasto profile steepens with radius, :math:`\\\\alpha`, is calibrated according to the `Gao et al. 2008 <http://scixplorer.org/abs/2008MNRAS.387..536G>`__ relation.",
        ["Gao et al. 2008"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/cosmology/cosmology.py",
        "By default, the power spectrum is computed using the transfer function approximation of `Eisenstein & Hu 1998 <http://scixplorer.org/abs/1998ApJ...496..605E>`__ (see the :mod:`cosmology.power_spectrum` module).",
        ["Eisenstein & Hu 1998"],
    ),
    (
        "pypi:gala-1.11.0:gala/potential/potential/builtin/core.py",
        "See `Lee & Suto (2003) <http://adsabs.harvard.edu/abs/2003ApJ...585..151L>`_ for details.",
        ["Lee & Suto (2003)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/sandbox/stats/multicomp.py",
        "Gibbons, Jean Dickinson and Chakraborti Subhabrata, 2003, Nonparametric Statistical Inference, Fourth Edition, Marcel Dekker p.363: 10.4 THE KRUSKAL-WALLIS ONE-WAY ANOVA TEST AND MULTIPLE COMPARISONS p.367: multiple comparison for kruskal formula used in multicomp.kruskal",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/cosmology/_src/flrw/base.py",
        "See Komatsu et al. 2011, eq 26 and the surrounding discussion for an explanation of what this does.",
        ["Komatsu et al. 2011"],
    ),
    (
        "pypi:gala-1.11.0:gala/dynamics/actionangle/actionangle_staeckel.py",
        "numerator of term in eq. 9 (Sanders 2012), but from Galpy, which claims there is a sign error in the manuscript?? num = 3 * z * dPhi_dR - 3 * R * dPhi_dz + R * z * (d2Phi_dR2 - d2Phi_dz2) a2_c2 = z**2 - R**2 + num / d2Phi_dRdz a2_c2[np.abs(a2_c2) < 1e-12] = 0.0  # MAGIC NUMBER / HACK delta = np.sqrt(a2_c2)",
        ["(Sanders 2012)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/time/formats.py",
        ">>> # Before 1972, the offset between TAI and UTC was not integer >>> t = Time('1970-01-01', scale='utc') >>> t.unix_tai - t.unix  # doctest: +FLOAT_CMP np.float64(8.000082)",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/nile/data.py",
        'COPYRIGHT = """This is public domain.""" TITLE = """Nile River flows at Ashwan 1871-1970""" SOURCE = """ This data is first analyzed in:',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/nonparametric/kde.py",
        "However, the discretization step is replaced by linear binning of Fan and Marron (1994).",
        ["Fan and Marron (1994)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/distributions/copula/copulas.py",
        'References ---------- .. [1] Marshall AW, Olkin I. “Families of Multivariate Distributions”, Journal of the American Statistical Association, 83, 834-841, 1988. .. [2] Marius Hofert. "Sampling Archimedean copulas", Universität Ulm, 2008. .. [3] Harry Joe. "Dependence Modeling with Copulas", Monographs on Statistics and Applied Probability 134, 2015.',
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/coordinates/builtin_frames/equatorial.py",
        "For clarity, this frame follows the conventions and relations to other frames that are set out in Vallado et al (2006).",
        ["Vallado et al (2006)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/stattools/_stattools.py",
        "Notes ----- The Diebold-Mariano (1995) test compares the predictive accuracy of two competing forecasts, ``forecast_a`` and ``forecast_b``, of the same series ``y``.",
        ["Diebold-Mariano (1995)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/modeling/functional_models.py",
        "Voigt function is calculated as real part of the complex error function computed from either Humlicek's rational approximations (JQSRT 21:309, 1979; 27:437, 1982) following Schreier 2018 (MNRAS 479, 3068; and ``hum2zpf16m`` from his cpfX.py module); or `~scipy.special.wofz` (implementing 'Faddeeva.cc').",
        ["Schreier 2018"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/genmod/families/family.py",
        "McCullagh & Nelder (1989) treat var_weights_i as a pure multiplier on the log-likelihood with Var(endog_i) = scale * mu_i².",
        ["McCullagh & Nelder (1989)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/statespace/_pykalman_smoother.py",
        "SMOOTHER_STATE = 0x01          # Durbin and Koopman (2012), Chapter 4.4.2 SMOOTHER_STATE_COV = 0x02      # ibid., Chapter 4.4.3 SMOOTHER_DISTURBANCE = 0x04    # ibid., Chapter 4.5 SMOOTHER_DISTURBANCE_COV = 0x08    # ibid., Chapter 4.5 SMOOTHER_ALL = ( SMOOTHER_STATE | SMOOTHER_STATE_COV | SMOOTHER_DISTURBANCE | SMOOTHER_DISTURBANCE_COV )",
        ["Durbin and Koopman (2012)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/defaults.py",
        'HALO_PROFILE_OUTER_D22_ZETA = 0.5 """The default sharpness of the transition of the infalling profile in the formulation of Diemer 2023."""',
        ["Diemer 2023"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/iv/model.py",
        "JIVE reduces the many instruments bias of 2SLS, but it can have a larger variance, particularly when the instruments are weak (see Davidson and MacKinnon, 2006).",
        ["(see Davidson and MacKinnon, 2006)"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/concentration.py",
        "Klypin et al. 2011 also give fits at particular redshifts other than zero.",
        ["Klypin et al. 2011"],
    ),
    (
        "pypi:colossus-1.4.0:colossus/halo/accretion_history.py",
        "By default ``zf`` comes from the van den Bosch 2002 formation redshift relation (``f_form = 0.254``, ``C = 0.477``).",
        ["van den Bosch 2002"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/sandbox/stats/runs.py",
        'References ---------- Muselli 1996, theorem 3 """',
        ["Muselli 1996"],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/nonparametric.py",
        "The matched pairs rank biserial correlation [2]_ is the simple difference between the proportion of favorable and unfavorable evidence; in the case of the Wilcoxon signed-rank test, the evidence consists of rank sums (Kerby 2014):",
        ["(Kerby 2014)"],
    ),
    (
        "pypi:linearmodels-7.1:linearmodels/datasets/card/__init__.py",
        '""" Returns to schooling data of Card (1995). """',
        ["Card (1995)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/regression/recursive_ls.py",
        "These quantities are defined in, for example, Harvey (1989) section 5.4.",
        ["Harvey (1989)"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/robust/scale.py",
        "R Venables, B Ripley. 'Modern Applied Statistics in S' Springer, New York, 2002.",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/tsa/adfvalues.py",
        "Returns ------- pvalue : float The p-value for the ADF statistic estimated using MacKinnon 1994.",
        ["MacKinnon 1994"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/_diagnostic_other.py",
        "Implementation similar to lm_robust_subset and is based on Boos 1992, section 4.1 in the form attributed to Breslow (1990).",
        ["Boos 1992", "Breslow (1990)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/modeling/functional_models.py",
        'where :math:`I_{e}` is the ``amplitude``, :math:`r_{e}` is ``reff``, and :math:`r(x, y)` is a rotated "generalized" ellipse (see `Athanassoula et al. 1990 <https://ui.adsabs.harvard.edu/abs/1990MNRAS.245..130A/abstract>`_) defined as:',
        ["Athanassoula et al. 1990"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/proportion.py",
        "z2 = stats.norm.isf(alpha / 2) ** 2 z = stats.chi2.isf(alpha, 1) before equ 3 in Nam 2009",
        ["Nam 2009"],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/base/transform.py",
        "Default 4, as per Guerrero and Perera (2004).",
        ["Guerrero and Perera (2004)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/visualization/lupton_rgb.py",
        'Licensed under a 3-clause BSD style license - see LICENSE.rst """ Combine 3 images to produce a properly-scaled RGB image following Lupton et al. (2004).',
        ["Lupton et al. (2004)"],
    ),
    (
        "pypi:dynesty-3.1.0:dynesty/internal_samplers.py",
        "asymmetric step size on the left/right (see Neal 2003) nstep_l = -rand0 nstep_r = 1 - rand0",
        ["(see Neal 2003)"],
    ),
    (
        "pypi:astropy-8.0.2:astropy/time/tests/test_update_leap_seconds.py",
        '["# File expires on 28 June 2010"] + [str(item) for item in expired]',
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/diagnostic.py",
        "July 2027, whichever is later, the default behavior will",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/stats/diagnostic.py",
        "after July 2027, whichever is later, the default behavior",
        [],
    ),
    ("pypi:astropy-8.0.2:astropy/nddata/mixins/ndslicing.py", "Catching KeyError for Python 3.12", []),
    (
        "pypi:astropy-8.0.2:astropy/utils/data.py",
        "URLError changed to report original exception in Python 3.11 (bpo-43564)",
        [],
    ),
    ("pypi:astropy-8.0.2:astropy/table/table.py", "and are deprecated in Python 3.12", []),
    (
        "pypi:astropy-8.0.2:astropy/utils/iers/tests/test_leap_second.py",
        'fake_file = make_fake_file("28 June 2017", tmp_path)',
        [],
    ),
    ("pypi:statsmodels-0.15.0:statsmodels/nonparametric/kde.py", "or after July 2028, whichever is later", []),
    (
        "pypi:astropy-8.0.2:astropy/time/tests/test_basic.py",
        "Row i is day i + 1 of January 2024, column j is hour j",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/table/tests/test_mixin.py",
        "and is needed to preserve byteorder (available since Python 3.8)",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/utils/decorators.py",
        "leading whitespace, because from Python 3.13 the bytecode compiler",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/table/tests/test_mixin.py",
        "protocol=5 matches the default for Python 3.14 and later",
        [],
    ),
    ("pypi:astropy-8.0.2:astropy/utils/decorators.py", "straight out of the Python 3.3 inspect module docs", []),
    (
        "pypi:astropy-8.0.2:astropy/io/fits/hdu/compressed/_codecs.py",
        "the copy but this does not work correctly in Python 3.11",
        [],
    ),
    ("pypi:astropy-8.0.2:astropy/utils/iers/iers.py", "#  File expires on 28 June 2020", []),
    ("pypi:astropy-8.0.2:astropy/utils/iers/iers.py", "# File expires on:  28 June 2020", []),
    (
        "pypi:astropy-8.0.2:astropy/io/fits/hdu/base.py",
        "Return the current timestamp in ISO 8601 format, with microseconds",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/utils/iers/tests/test_leap_second.py",
        'fake_file = make_fake_file("28 June 2010", tmp_path)',
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/utils/iers/tests/test_leap_second.py",
        'fake_file1 = make_fake_file("28 June 2010", tmp_path)',
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/utils/iers/tests/test_leap_second.py",
        'fake_file2 = make_fake_file("27 June 2012", tmp_path)',
        [],
    ),
    (
        "pypi:pingouin-0.7.0:pingouin/nonparametric.py",
        "estimator, Biometrika, Volume 69, Issue 3, December 1982, Pages",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/utils/tests/test_decorators.py",
        "As of Python 3.13, this is in line with how the builtin @property decorator",
        [],
    ),
    ("pypi:astropy-8.0.2:astropy/config/_tempfile_shim.py", "backport the class from Python 3.12", []),
    ("pypi:astropy-8.0.2:astropy/config/paths.py", "in Python 3.15+, this should be a frozendict", []),
    (
        "pypi:linearmodels-7.1:linearmodels/tests/test_examples.py",
        "that avoid this are deprecated in Python 3.14, so only use them before that",
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/tests/helper.py",
        "* -1 is the most advanced, which is 5 since Python 3.8, default from 3",
        [],
    ),
    ("pypi:astropy-8.0.2:astropy/tests/helper.py", "* 4 introduced in Python 3.4, has been the default in 3", []),
    ("pypi:astropy-8.0.2:astropy/config/paths.py", "- ``delete`` is supported even on Python 3.11", []),
    (
        "pypi:astropy-8.0.2:astropy/io/misc/pyarrow/csv.py",
        "Columns with ISO 8601 date/time strings are parsed as shown below:",
        [],
    ),
    ("pypi:astropy-8.0.2:astropy/time/formats.py", 'ISO 8601 compliant date-time format "YYYY-MM-DD HH:MM:SS', []),
    ("pypi:astropy-8.0.2:astropy/time/formats.py", 'ISO 8601 compliant date-time format "YYYY-MM-DDTHH:MM:SS', []),
    ("deb:nodejs/BUILDING.md", "[Visual Studio 2022](https://visualstudio", []),
    (
        "pypi:linearmodels-7.1:linearmodels/tests/test_examples.py",
        "Windows, Python 3.14+: ignore the zmq warning about the Proactor loop (see above)",
        [],
    ),
    ("deb:nodejs/BUILDING.md", "* [Visual Studio 2022 Build Tools](https://chocolatey", []),
    (
        "pypi:statsmodels-0.15.0:statsmodels/nonparametric/kernel_density.py",
        "0 or after January 2028, whichever comes sooner,",
        [],
    ),
    ("pypi:statsmodels-0.15.0:statsmodels/regression/linear_model.py", "0 or after July 2027, whichever is later,", []),
    ("pypi:statsmodels-0.15.0:statsmodels/stats/diagnostic.py", "0 or after July 2027, whichever is later, the", []),
    (
        "pypi:statsmodels-0.15.0:statsmodels/emplike/originregress.py",
        "0 or after July 2027, whichever is later, the default",
        [],
    ),
    ("pypi:statsmodels-0.15.0:statsmodels/regression/linear_model.py", "0 or after July 2028, whichever is later", []),
    (
        "pypi:linearmodels-7.1:linearmodels-7.1.dist-info/METADATA",
        "1 is the last release that supports Python 3.10 and NumPy 1",
        [],
    ),
    ("deb:nodejs/BUILDING.md", "1/Server 2012           | Experimental                                    |", []),
    (
        "pypi:statsmodels-0.15.0:statsmodels/regression/linear_model.py",
        "16 or after July 2027, whichever is later,",
        [],
    ),
    (
        "pypi:statsmodels-0.15.0:statsmodels/nonparametric/_kernel_base.py",
        "17 or January 2028, whichever comes first, the",
        [],
    ),
    ("deb:nodejs/BUILDING.md", "NET SDK component from [Visual Studio 2022](https://visualstudio", []),
    ("pypi:statsmodels-0.15.0:statsmodels/datasets/co2/data.py", "Period of Record: March 1958 - December 2001", []),
    (
        "pypi:pingouin-0.7.0:pingouin-0.7.0.dist-info/METADATA",
        "Pingouin is a Python 3 package and is currently tested for Python 3.11+",
        [],
    ),
    (
        "deb:python3-pip/README.Debian",
        'Python 3.4 introduced a module called "ensurepip" which is used - as its name',
        [],
    ),
    (
        "pypi:lifelines-0.30.3:lifelines/utils/lowess.py",
        "Statistical Association, September 1988, volume 83, number 403, pp",
        [],
    ),
    ("deb:nodejs/BUILDING.md", "configuration since the November 2020 version and allows for setting", []),
    ("pypi:astropy-8.0.2:astropy/utils/xml/tests/test_iterparse.py", "decode() for compatibility with Python 3.5", []),
    (
        "pypi:statsmodels-0.15.0:statsmodels/datasets/scotland/data.py",
        "of April 1997 per two adults before adjustments, the female percentage of",
        [],
    ),
    (
        "pypi:lifelines-0.30.3:lifelines/utils/lowess.py",
        'scatterplots", Journal of the American Statistical Association, December 1979,',
        [],
    ),
    (
        "pypi:astropy-8.0.2:astropy/tests/test_logger.py",
        'skip(reason="Infinite recursion on Python 3.5+, probably a real issue")',
        [],
    ),
    (
        "deb:nodejs/BUILDING.md",
        "| Windows          | Visual Studio 2019 or 2022 with the Windows 10 SDK on a 64-bit host |",
        [],
    ),
    (
        "deb:nodejs/BUILDING.md",
        "| Windows          | x64, x86 (WoW64) | >= Windows 10/Server 2016         | Tier 1                                          | [^2],[^3]",
        [],
    ),
    (
        "deb:nodejs/BUILDING.md",
        "| Windows          | x86 (native)     | >= Windows 10/Server 2016         | Tier 1 (running) / Experimental (compiling)[^4] |",
        [],
    ),
    (
        "deb:nodejs/BUILDING.md",
        "| win-x64 and win-x86     | Windows 2012 R2 (x64) with Visual Studio 2019                                                               |",
        [],
    ),
    (
        "written: look-alike (issue 15 list)",
        "The lab still runs Windows 2000 on two machines and Python 3.11 on the rest.",
        [],
    ),
    ("written: look-alike (issue 15 list)", "In 2014 Smith moved the project to a new server.", []),
    ("written: look-alike (issue 15 list)", "Section 2014 of the tax code was amended, see Section 2014(b).", []),
    ("written: look-alike (issue 15 list)", "The seminar is in Room 2014; boarding is at Gate 1520 from 9 am.", []),
    (
        "written: look-alike (issue 15 list)",
        "We measured the Canon 1500D against the Model 1900 and the Boeing 1900 sensors.",
        [],
    ),
    ("written: look-alike (issue 15 list)", "Expo 2005 was held in Aichi, and the Expo 2005 site is now a park.", []),
    ("written: look-alike (issue 15 list)", "The results were presented on 15 March 2015 in Berlin.", []),
    ("written: look-alike (issue 15 list)", "Send the forms to 12 Main Street, Sydney 2000, Australia.", []),
    (
        "written: look-alike (issue 15 list)",
        "Our office moved to Hauptstrasse 5, Neuchâtel 2000, Switzerland, last spring.",
        [],
    ),
    (
        "written: look-alike (issue 15 list)",
        "The Paris 2024 Olympics and the Tokyo 2020 Games were postponed or moved.",
        [],
    ),
    (
        "written: look-alike (issue 15 list)",
        "Visual Studio 2019 and SQL Server 2019 are required for the Windows build.",
        [],
    ),
    ("written: look-alike (issue 15 list)", "She finished the Berlin Marathon 2019 in under three hours.", []),
    ("written: look-alike (issue 15 list)", "The Euro 2016 final and World Cup 2018 drew large audiences.", []),
    ("written: look-alike (issue 15 list)", "Microsoft Office 2016 and Word 2013 files are converted on upload.", []),
    ("written: look-alike (issue 15 list)", "The Fortran 2008 standard added coarrays; Ada 2012 added contracts.", []),
    ("written: look-alike (issue 15 list)", "The Class 1900 locomotives were retired in 1962.", []),
    ("written: look-alike (issue 15 list)", "The Census 2011 tables were released in Spring 2013.", []),
    ("written: look-alike (issue 15 list)", "During Summer 2019 the team doubled in size.", []),
    ("written: look-alike (issue 15 list)", "Quarterly sales in Q3 2019 rose against Q2 2019.", []),
    ("written: look-alike (issue 15 list)", "The Nikon 1800 lens was discontinued.", []),
    ("written: look-alike (issue 15 list)", "Flight 1549 landed on the Hudson in January 2009.", []),
    ("written: look-alike (issue 15 list)", "He lived at Baker Street 2010 until the building was demolished.", []),
    ("written: look-alike (issue 15 list)", "We tested on Ubuntu 22.04 and macOS 14 with Python 3.12.", []),
    ("written: look-alike (issue 15 list)", "The RFC 8446 text is dated August 2018; TLS 1.3 replaced TLS 1.2.", []),
    ("written: look-alike (issue 15 list)", "The ISO 9001 certificate and the IEEE 754 standard apply.", []),
    (
        "written: look-alike (issue 15 list)",
        "The conference NeurIPS 2020 and the workshop CoNLL 2012 were held online.",
        [],
    ),
    ("written: look-alike (issue 15 list)", "Apartment 1204, Tower B, was rented by the Vintage 1998 club.", []),
    ("written: look-alike (issue 15 list)", "The Budget 2021 report and the Agenda 2030 goals were discussed.", []),
    ("written: look-alike (issue 15 list)", "Meet me at Platform 1904 after Christmas 2019.", []),
    ("written: look-alike (issue 15 list)", "The iPhone 2020 lineup and the Galaxy 2021 series were compared.", []),
]


def split(examples=EXAMPLES):
    """``(tune, held_out)``: a fixed half by a hash of each text."""
    tune, held = [], []
    for ex in examples:
        (held if hashlib.sha1(ex[1].encode("utf-8")).digest()[0] % 2 else tune).append(ex)
    return tune, held
