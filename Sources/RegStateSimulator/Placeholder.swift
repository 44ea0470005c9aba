// The simulator: see issue #2/#3.
