module mdc/bench/export

go 1.26.0
