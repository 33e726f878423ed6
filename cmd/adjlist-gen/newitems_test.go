package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inferenceErrors are small models on which adjlist-gen's inference has
// made an error the samples' round trip cannot see, each with the text
// of model.go that shows the error and what the failure of the generated
// TestNewItems must name: the item type and the key.
var inferenceErrors = []struct {
	name  string
	model string
	// shows is the generated text of the error; inject, when inference
	// no longer makes it, is the right text it replaces with shows, so
	// that the test still proves the generated test catches it.
	shows, inject string
	fails         []string
}{{
	// Every sample product has categoryId == productId: P#{categoryId}
	// spells the key from the wrong attribute, which the access pattern's
	// request names.
	name: "coincidence", shows: `"P#{categoryId}"`, inject: `"P#{productId}"`,
	fails: []string{"P: access pattern", `PK = "P#<productId>"`, `"P#new-productId-`},
	model: `{"ModelName": "shop", "ModelMetadata": {"Description": "A shop.\nAccess patterns:\n- get product: Entity.Get, GetItem PK = \"P#<productId>\" AND SK = \"PRODUCT\" on table"},
 "DataModel": [{"TableName": "shop",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
  "TableData": [
   {"PK": {"S": "C#1"}, "SK": {"S": "CATEGORY"}, "categoryId": {"S": "1"}, "name": {"S": "Books"}},
   {"PK": {"S": "C#2"}, "SK": {"S": "CATEGORY"}, "categoryId": {"S": "2"}, "name": {"S": "Games"}},
   {"PK": {"S": "P#1"}, "SK": {"S": "PRODUCT"}, "categoryId": {"S": "1"}, "productId": {"S": "1"}, "title": {"S": "Dune"}},
   {"PK": {"S": "P#2"}, "SK": {"S": "PRODUCT"}, "categoryId": {"S": "2"}, "productId": {"S": "2"}, "title": {"S": "Chess"}}]}]}`,
}, {
	// The one sample meeting's index key became the constant
	// arvinje#MEETINGS: a new meeting by another organiser is indexed
	// under arvinje.
	name: "frozen", shows: `"arvinje#MEETINGS"`,
	fails: []string{"entity MEETING: key GSI2PK", `holds "arvinje"`},
	model: `{"ModelName": "meetings", "DataModel": [{"TableName": "meetings",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
  "GlobalSecondaryIndexes": [{"IndexName": "GSI2", "KeyAttributes": {"PartitionKey": {"AttributeName": "GSI2PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "GSI2SK", "AttributeType": "S"}}, "Projection": {"ProjectionType": "ALL"}}],
  "TableData": [
   {"PK": {"S": "USER#arvinje"}, "SK": {"S": "PROFILE"}, "email": {"S": "a@example.com"}},
   {"PK": {"S": "USER#bo"}, "SK": {"S": "PROFILE"}, "email": {"S": "b@example.com"}},
   {"PK": {"S": "MEETING#m1"}, "SK": {"S": "INFO"}, "GSI2PK": {"S": "arvinje#MEETINGS"}, "GSI2SK": {"S": "2020-01-01T10:00"}, "title": {"S": "Plan"}}]}]}`,
}, {
	// Game modes without digits became fixed text, one item type each:
	// no type can write a new game mode.
	name: "fixedtext", shows: `"LEADERBOARD", "ranked"`,
	fails: []string{"ranked", `PK = "LEADERBOARD", SK = "new-1"`},
	model: `{"ModelName": "games", "DataModel": [{"TableName": "games",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
  "TableData": [
   {"PK": {"S": "LEADERBOARD"}, "SK": {"S": "ranked"}, "players": {"N": "10"}},
   {"PK": {"S": "LEADERBOARD"}, "SK": {"S": "casual"}, "players": {"N": "20"}},
   {"PK": {"S": "LEADERBOARD"}, "SK": {"S": "arcade"}, "players": {"N": "30"}}]}]}`,
}}

// TestNewItemsCatchInferenceErrors generates a package from each model of
// inferenceErrors and runs its test on DynamoDB Local: where model.go
// shows the inference error, the generated test fails, naming the item
// type and the key; where inference no longer makes it, the right text
// is replaced by the wrong one where the case says how (and it must
// fail), else the generated test passes.
func TestNewItemsCatchInferenceErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a package per model")
	}
	out, err := os.MkdirTemp("testdata", "out-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(out) })
	var runs []modelFile
	tests := map[string][]string{}
	wantFail := map[string]bool{}
	for _, c := range inferenceErrors {
		pkg := "errors" + c.name
		g, err := build([]byte(c.model), pkg, c.name+".json")
		require.NoError(t, err, c.name)
		files, err := g.render()
		require.NoError(t, err, c.name)
		dir := filepath.Join(out, pkg)
		require.NoError(t, os.MkdirAll(dir, 0o755))
		for _, f := range files {
			text := string(f.text)
			if f.name == "model.go" {
				switch {
				case strings.Contains(text, c.shows):
					wantFail[pkg] = true
				case c.inject != "" && strings.Contains(text, c.inject):
					t.Logf("%s: inference no longer makes the error; the test injects it", c.name)
					text = strings.ReplaceAll(text, c.inject, c.shows)
					wantFail[pkg] = true
				default:
					t.Logf("%s: inference no longer makes the error", c.name)
				}
			}
			require.NoError(t, os.WriteFile(filepath.Join(dir, f.name), []byte(text), 0o644))
		}
		runs = append(runs, modelFile{name: c.name, pkg: pkg})
		tests[pkg] = asPlainFile(t, dir, filepath.Join(out, "all", pkg))
	}
	results := runAll(t, out, runs, tests)
	for _, c := range inferenceErrors {
		t.Run(c.name, func(t *testing.T) {
			pkg := "errors" + c.name
			r := results[pkg]
			if !wantFail[pkg] {
				assert.Equal(t, "pass", r.result, r.output)
				return
			}
			require.Equal(t, "fail", r.result, r.output)
			assert.Contains(t, r.output, "--- FAIL: Test_"+pkg+"/TestNewItems/")
			for _, s := range c.fails {
				assert.Contains(t, r.output, s)
			}
			for _, other := range []string{"TestModel", "TestWrittenByEntities", "TestWrittenByOtherPrograms"} {
				assert.Contains(t, r.output, "--- PASS: Test_"+pkg+"/"+other+" ", "the round trip of the samples passes")
			}
		})
	}
}
