module mdc/bench/isolation

go 1.26.0
