# The hunt's guest side (tests/hunt/run.sh copies it into its scenarios directory): one
# pdtrace trace of every lifecycle event for the whole boot, on the results channel, and
# each module of /ci/hunt/list loaded, exercised and unloaded between two marker
# directories that pdtrace sees in the same ordered stream (tests/hunt/guest/lib.sh).
# timeout: 3300
. /ci/hunt/lib.sh
hunt_main
