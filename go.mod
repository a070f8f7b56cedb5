module tankwatch

go 1.26.8
