"""The option gate's refusals of :func:`sqlauc.evaluate`'s option combinations (run before
any connection is used)."""

from __future__ import annotations

from sqlauc.options import DEFAULT_CI, Options, invalid


def check_options(options: Options) -> None:
    """evaluate's refusals of option combinations (the option gate runs them before any
    connection is used): ``eps`` without ``log_loss`` or ``ne`` in ``metrics`` (it would change
    nothing), ``group`` without ``gauc`` and the reverse, a ``group_weight`` without ``gauc``,
    and with method="binned" the options that need exact per-score placements."""
    if options.method == "binned":
        for option in ("ci", "max_fpr", "metrics", "eps", "group"):
            if option == "ci" and options.ci is DEFAULT_CI:
                continue
            if getattr(options, option) not in (None, ()):
                raise invalid(option, "evaluate", "None with method='binned' (the binned query "
                              "counts rows per score bin, not per score; its bounds are "
                              "auc_low_bound and auc_high_bound)",
                              getattr(options, option))  # fmt: skip
        return
    if options.cluster:
        check_cluster(options, "evaluate")
    if options.eps is not None and not {"log_loss", "ne"} & set(options.metrics):
        raise invalid("eps", "evaluate", "None unless metrics= includes 'log_loss' or 'ne' "
                      "(it is their clipping of probabilities)", options.eps)  # fmt: skip
    if ("gauc" in options.metrics) != (options.group is not None):
        if options.group is None:
            raise invalid("group", "evaluate", "a column name when metrics= includes 'gauc'",
                          None)  # fmt: skip
        raise invalid("group", "evaluate", "None unless metrics= includes 'gauc'",
                      options.group)  # fmt: skip
    if options.group is None and options.group_weight != "impressions":
        raise invalid("group_weight", "evaluate", "'impressions' (the default) unless "
                      "metrics= includes 'gauc'", options.group_weight)  # fmt: skip


def check_cluster(options: Options, function: str) -> None:
    """cluster= changes the interval only: it needs one (ci given), and it is not combined
    with max_fpr=, metrics= or group= (their per-score and per-group stages)."""
    if getattr(options, "ci", 0.95) is None:
        raise invalid("cluster", function, "None when ci=None (the clusters change the "
                      "interval only)", list(options.cluster))  # fmt: skip
    for option in ("max_fpr", "metrics", "group"):
        if getattr(options, option) not in (None, ()):
            raise invalid(option, function, "None with cluster= (the clustered query computes "
                          "the AUC and its interval only)", getattr(options, option))  # fmt: skip
