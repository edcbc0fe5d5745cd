module mdc/bench/compact

go 1.26.0
