module mdc/tests/e2e

go 1.24.0
