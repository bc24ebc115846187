# Pinned DeLong values from pROC 1.18 (R), for tests/test_reference_delong.py.
#
# Regenerate (needs R and pROC; CI does not):
#   Rscript tests/pinned/proc_delong.R > tests/pinned/proc_delong.json
#
# Each data set has a 0/1 label, two scores s1 and s2 and optional integer frequency weights
# w; pROC sees a weight-k row as k repeated rows. For each set the JSON holds the data and
# pROC's auc, var() and ci.auc(method = "delong") of each score and the paired
# roc.test(method = "delong") z and p of s1 against s2. NA (undefined) is written as null.
suppressPackageStartupMessages(library(pROC))
stopifnot(packageVersion("pROC") == "1.18.0")

num <- function(x) {
  if (length(x) == 0 || is.na(x)) "null" else sprintf("%.17g", x)
}
vec <- function(x) paste0("[", paste(vapply(x, num, ""), collapse = ", "), "]")
kv <- function(key, value) sprintf("\"%s\": %s", key, value)

make <- function(seed, n_pos, n_neg, digits = NA, shift = 0.8, corr = 0.6) {
  set.seed(seed)
  label <- c(rep(1, n_pos), rep(0, n_neg))
  base <- rnorm(n_pos + n_neg) + shift * label
  s1 <- base
  s2 <- corr * base + sqrt(1 - corr^2) * rnorm(n_pos + n_neg) + 0.3 * shift * label
  if (!is.na(digits)) {
    s1 <- round(s1, digits)
    s2 <- round(s2, digits)
  }
  order <- sample.int(n_pos + n_neg)
  list(label = label[order], s1 = s1[order], s2 = s2[order], w = NULL)
}

sets <- list()
sets$hand_tie <- list(label = c(0, 0, 1, 1, 0, 1), s1 = c(0.1, 0.4, 0.4, 0.8, 0.6, 0.35),
                      s2 = c(0.2, 0.3, 0.5, 0.5, 0.1, 0.3), w = NULL)
sets$continuous_30 <- make(1, 14, 16)
sets$round1_60 <- make(2, 25, 35, digits = 1)
sets$unbalanced_p5 <- make(3, 5, 200, digits = 2)
sets$p2 <- make(4, 2, 40, digits = 1)
sets$n2 <- make(5, 30, 2, digits = 1)
sets$few_values <- make(6, 40, 60, digits = 0, shift = 1.2)
w7 <- make(7, 20, 30, digits = 1)
set.seed(70)
w7$w <- sample(1:4, 50, replace = TRUE)
sets$weights_1to4 <- w7
w8 <- make(8, 35, 45, digits = 1)
set.seed(80)
w8$w <- sample(0:3, 80, replace = TRUE)
sets$weights_with_zeros <- w8
sets$medium_500 <- make(9, 180, 320, digits = 2)
sets$medium_continuous_400 <- make(10, 150, 250)
s11 <- make(11, 25, 25, digits = 1, shift = 4)
set.seed(110)
s11$s2 <- round(s11$s2 + 2 * rnorm(50), 1)  # s1 separates perfectly, s2 does not
sets$near_perfect <- s11
s12 <- make(12, 20, 30, digits = 1)
s12$s2 <- 2 * s12$s1 + 1  # the same ranks: identical placements, var(diff) = 0
sets$same_ranks <- s12
s13 <- make(13, 50, 70, digits = 1)
s13$s2 <- -s13$s1  # reversed ranks: AUC2 = 1 - AUC1
sets$reversed <- s13
sets$p1 <- make(14, 1, 20, digits = 1)  # one positive: the variance is undefined (NA)

entries <- character(0)
for (name in names(sets)) {
  d <- sets[[name]]
  reps <- if (is.null(d$w)) rep(1, length(d$label)) else d$w
  label <- rep(d$label, reps)
  s1 <- rep(d$s1, reps)
  s2 <- rep(d$s2, reps)
  r1 <- roc(label, s1, levels = c(0, 1), direction = "<", quiet = TRUE)
  r2 <- roc(label, s2, levels = c(0, 1), direction = "<", quiet = TRUE)
  c1 <- suppressWarnings(as.numeric(ci.auc(r1, method = "delong", conf.level = 0.95)))
  c2 <- suppressWarnings(as.numeric(ci.auc(r2, method = "delong", conf.level = 0.95)))
  c1_90 <- suppressWarnings(as.numeric(ci.auc(r1, method = "delong", conf.level = 0.9)))
  t <- tryCatch(suppressWarnings(roc.test(r1, r2, method = "delong", paired = TRUE)),
                error = function(e) list(statistic = NA, p.value = NA))
  fields <- c(
    kv("name", sprintf("\"%s\"", name)),
    kv("label", vec(d$label)), kv("s1", vec(d$s1)), kv("s2", vec(d$s2)),
    kv("w", if (is.null(d$w)) "null" else vec(d$w)),
    kv("auc1", num(as.numeric(auc(r1)))), kv("auc2", num(as.numeric(auc(r2)))),
    kv("var1", num(suppressWarnings(var(r1, method = "delong")))),
    kv("var2", num(suppressWarnings(var(r2, method = "delong")))),
    kv("ci1", vec(c1)), kv("ci2", vec(c2)), kv("ci1_90", vec(c1_90)),
    kv("z", num(as.numeric(t$statistic))), kv("p", num(as.numeric(t$p.value)))
  )
  entries <- c(entries, paste0("    {\n      ", paste(fields, collapse = ",\n      "), "\n    }"))
}
cat("{\n")
cat(sprintf("  \"generator\": \"tests/pinned/proc_delong.R\",\n"))
cat(sprintf("  \"pROC\": \"%s\",\n", as.character(packageVersion("pROC"))))
cat(sprintf("  \"R\": \"%s\",\n", R.version.string))
cat("  \"sets\": [\n")
cat(paste(entries, collapse = ",\n"))
cat("\n  ]\n}\n")
