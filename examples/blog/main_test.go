package main

import (
	"testing"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

func finalTable() exampletest.Seed {
	author := func(id string) exampleutil.Shape {
		return exampletest.Item(map[string]string{"PK": "AUTHOR#" + id, "SK": "PROFILE"}, "name", "published", "version", "createdAt", "updatedAt")
	}
	return exampletest.Seed{KeyAttrs: []string{"PK", "SK", "GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"}, Items: []exampleutil.Shape{
		author("ada"), author("bob"),
		exampletest.Item(map[string]string{"PK": "AUTHOR#ada", "SK": "POST#2026-0001", "GSI2PK": "STATUS#PUBLISHED", "GSI2SK": "POST#2026-0001"},
			"title", "status", "likes", "version", "createdAt", "updatedAt"),
		exampletest.Item(map[string]string{"PK": "AUTHOR#ada", "SK": "SESSION#web"}, "device", "expiresAt"),
		exampletest.Item(map[string]string{"PK": "AUTHOR#bob", "SK": "FOLLOWS#AUTHOR#ada", "GSI1PK": "AUTHOR#ada", "GSI1SK": "AUTHOR#bob"}, "since"),
		exampletest.Item(map[string]string{"PK": "TAG#dynamodb", "SK": "TAG#dynamodb"}),
		exampletest.Item(map[string]string{"PK": "TAG#go", "SK": "TAG#go"}),
		exampletest.Item(map[string]string{"PK": "TAG#dynamodb", "SK": "TAGGED#AUTHOR#ada#POST#2026-0001",
			"GSI1PK": "AUTHOR#ada#POST#2026-0001", "GSI1SK": "TAG#dynamodb"}, "by"),
	}}
}

func TestRunWritesTheBlog(t *testing.T) {
	exampletest.RunTwice(t, example, finalTable(), func(run int, out string) {
		exampletest.ContainsAll(t, out,
			"likes is a multiple of 20: true\n",
			"  published posts across authors: 1\n",
			"  2 sessions stored, 1 live: web\n",
			"  tagging a missing post: POST AUTHOR#ada#POST#no-such-post not found, nothing written\n",
			"  posts tagged dynamodb: ada/2026-0001 ada/scratch\n",
			"  tags of ada/scratch: 2\n",
			"  ada/scratch deleted with its 2 taggings\n",
		)
		if run == 0 {
			exampletest.ContainsAll(t, out,
				"  published; ada has 1 published post(s)\n",
				"\nada: version 2, created ",
			)
		} else {
			exampletest.ContainsAll(t, out,
				"  ada: already signed up\n",
				"  the draft is saved already\n",
				"  not a draft any more: already published\n",
				"  web: signed in before; extending the session\n",
				"\nada: version 2, created ",
			)
		}
	})
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

// TestVerify: the items the run leaves all fit the model it declares
// (go run ./examples/blog -verify).
func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }

func TestDescribe(t *testing.T) {
	out := exampletest.Describe(t, example)
	exampletest.ContainsAll(t, out, "| child POST of AUTHOR |", "SESSION",
		"| edge TAGGED (TAG → AUTHOR/POST) |", "`TAGGED#AUTHOR#<to parent>#POST#<to>`")
}
