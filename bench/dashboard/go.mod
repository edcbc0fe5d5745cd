module mdc/bench/dashboard

go 1.24
