module github.com/argosgo/argos

go 1.25

require (
	github.com/jakecoffman/cp/v2 v2.4.0
	github.com/sirupsen/logrus v1.10.2
)

require golang.org/x/sys v0.13.0 // indirect
