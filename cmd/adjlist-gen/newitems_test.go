package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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

// generateInferenceErrors writes in out a package per model of
// inferenceErrors, and tells which must fail: those whose model.go shows
// the error, or has it injected where inference no longer makes it.
func generateInferenceErrors(t *testing.T, out string) (runs []modelFile, wantFail map[string]bool) {
	t.Helper()
	wantFail = map[string]bool{}
	for _, c := range inferenceErrors {
		pkg := "errors" + c.name
		g, err := build([]byte(c.model), pkg, c.name+".json")
		require.NoError(t, err, c.name)
		files, err := g.render()
		require.NoError(t, err, c.name)
		for i, f := range files {
			if f.name != "model.go" {
				continue
			}
			text := string(f.text)
			switch {
			case strings.Contains(text, c.shows):
				wantFail[pkg] = true
			case c.inject != "" && strings.Contains(text, c.inject):
				t.Logf("%s: inference no longer makes the error; the test injects it", c.name)
				files[i].text = []byte(strings.ReplaceAll(text, c.inject, c.shows))
				wantFail[pkg] = true
			default:
				t.Logf("%s: inference no longer makes the error: its package's test must pass", c.name)
			}
		}
		writePackage(t, filepath.Join(out, pkg), files)
		runs = append(runs, modelFile{name: c.name, pkg: pkg})
	}
	return runs, wantFail
}

// checkInferenceError checks how the test of the package of an
// inferenceErrors model ended: where it must fail, TestNewItems fails
// naming the item type and the key, and the samples' round trip passes.
func checkInferenceError(t *testing.T, m modelFile, wantFail bool, r outcome) {
	t.Helper()
	if !wantFail {
		assert.Equal(t, "pass", r.result, r.output)
		return
	}
	require.Equal(t, "fail", r.result, r.output)
	assert.Contains(t, r.output, "--- FAIL: Test_"+m.pkg+"/TestNewItems/")
	for _, c := range inferenceErrors {
		if "errors"+c.name != m.pkg {
			continue
		}
		// In any case: inference may name the item types otherwise.
		for _, s := range c.fails {
			assert.Contains(t, strings.ToLower(r.output), strings.ToLower(s))
		}
	}
	for _, other := range []string{"TestModel", "TestWrittenByEntities", "TestWrittenByOtherPrograms"} {
		assert.Contains(t, r.output, "--- PASS: Test_"+m.pkg+"/"+other+" ", "the round trip of the samples passes")
	}
}

// writePackage writes a generated package's files in dir.
func writePackage(t *testing.T, dir string, files []source) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, f := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, f.name), f.text, 0o644))
	}
}

// wordRE finds the words of a file: a value is in a file where it is a
// whole word, not part of a longer one.
var wordRE = regexp.MustCompile(`[\pL\pN_]+`)

// generatedWords are the words of the files generated with synthesize
// from a model holding none of testdata's values: the generator's own
// vocabulary ("Item", "DynamoDB", "dynamodb"), which a sample value may
// happen to be.
func generatedWords(t *testing.T) map[string]bool {
	t.Helper()
	g, err := build([]byte(inferenceErrors[1].model), "vocabulary", "vocabulary.json")
	require.NoError(t, err)
	g.synthesize = true
	files, err := g.render()
	require.NoError(t, err)
	words := map[string]bool{}
	for _, f := range files {
		for _, w := range wordRE.FindAllString(string(f.text), -1) {
			words[w] = true
		}
	}
	return words
}

// assertNoSampleValues checks that files, generated from g with
// synthesize, hold none of the values of its sample items: every text
// and number of their attributes (sets, lists and maps included) and
// every part of their keys, as a whole word or a longer run of words.
// Not checked: values under three characters ("1", "A"), which any code
// holds; the model's own names (tables, indexes, attributes, item types,
// the fixed text of its templates, the words of its description), which
// the code must hold; and vocabulary, the generator's own words.
func assertNoSampleValues(t *testing.T, g *generator, files []source, vocabulary map[string]bool) {
	t.Helper()
	schema := map[string]bool{}
	for _, w := range wordRE.FindAllString(g.m.name+" "+g.m.description, -1) {
		schema[w] = true
	}
	values := map[string]bool{}
	var walk func(v types.AttributeValue)
	walk = func(v types.AttributeValue) {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			values[v.Value] = true
			for _, part := range strings.Split(v.Value, "#") {
				values[part] = true
			}
		case *types.AttributeValueMemberN:
			values[v.Value] = true
		case *types.AttributeValueMemberSS:
			for _, s := range v.Value {
				values[s] = true
			}
		case *types.AttributeValueMemberNS:
			for _, s := range v.Value {
				values[s] = true
			}
		case *types.AttributeValueMemberL:
			for _, e := range v.Value {
				walk(e)
			}
		case *types.AttributeValueMemberM:
			for k, e := range v.Value {
				schema[k] = true
				walk(e)
			}
		}
	}
	for _, tb := range g.m.tables {
		schema[tb.name] = true
		for _, ix := range tb.indexes {
			schema[ix.name] = true
		}
		for _, it := range tb.items {
			for a, v := range it.av {
				schema[a] = true
				walk(v)
			}
		}
		for _, e := range tb.entities {
			schema[e.name] = true
			tpls := [][]tpart{e.pk, e.sk}
			for _, k := range e.indexes {
				tpls = append(tpls, k.pk, k.sk)
			}
			for _, tpl := range tpls {
				for _, part := range strings.Split(template(tpl), "#") {
					schema[part] = true
				}
				for _, w := range wordRE.FindAllString(template(tpl), -1) {
					schema[w] = true
				}
			}
		}
	}
	require.NotEmpty(t, values)
	for _, f := range files {
		text := string(f.text)
		words := map[string]bool{}
		for _, w := range wordRE.FindAllString(text, -1) {
			words[w] = true
		}
		for v := range values {
			if len(v) < 3 || schema[v] || vocabulary[v] {
				continue
			}
			if at := wordAt(text, v, words); at >= 0 {
				lo, hi := max(0, at-40), min(len(text), at+len(v)+40)
				t.Errorf("%s %s holds the sample value %q: …%s…", g.pkg, f.name, v, text[lo:hi])
			}
		}
	}
}

// wordAt is where text holds v as a whole word or run of words, or -1;
// words are text's words.
func wordAt(text, v string, words map[string]bool) int {
	if wordRE.FindString(v) == v && !words[v] {
		return -1
	}
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' }
	for i := 0; ; {
		j := strings.Index(text[i:], v)
		if j < 0 {
			return -1
		}
		at := i + j
		before, _ := utf8.DecodeLastRuneInString(text[:at])
		after, _ := utf8.DecodeRuneInString(text[at+len(v):])
		if (at == 0 || !isWord(before)) && (at+len(v) == len(text) || !isWord(after)) {
			return at
		}
		i = at + 1
	}
}
