package main

import (
	"testing"

	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

// TestExports: -workbench and -cloudformation write a NoSQL Workbench data
// model (with the run's items as sample data) and a cfn-lint clean
// CloudFormation template of the table; -describe prints the diagram.
func TestExports(t *testing.T) { exampletest.Exports(t, example) }
