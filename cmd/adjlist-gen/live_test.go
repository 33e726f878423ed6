package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// TestMain runs the tests on one DynamoDB Local (ddbtest.Main): the one
// AWS_ENDPOINT_URL_DYNAMODB names, or one started for them.
func TestMain(m *testing.M) { ddbtest.Main(m) }

// localEnv points the SDK's default configuration, which -table reads, at
// the tests' DynamoDB Local, with dummy credentials and no shared config
// file, so that nothing can reach AWS; it returns the client.
func localEnv(t *testing.T) *dynamodb.Client {
	t.Helper()
	db := ddbtest.Client(t)
	dir := t.TempDir()
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL_DYNAMODB":   aws.ToString(db.Options().BaseEndpoint),
		"AWS_ENDPOINT_URL":            "",
		"AWS_REGION":                  "us-east-1",
		"AWS_DEFAULT_REGION":          "",
		"AWS_ACCESS_KEY_ID":           "local",
		"AWS_SECRET_ACCESS_KEY":       "local",
		"AWS_SESSION_TOKEN":           "",
		"AWS_PROFILE":                 "",
		"AWS_CONFIG_FILE":             filepath.Join(dir, "none"),
		"AWS_SHARED_CREDENTIALS_FILE": filepath.Join(dir, "none"),
		"AWS_EC2_METADATA_DISABLED":   "true",
	} {
		t.Setenv(k, v)
	}
	return db
}

// createRaw creates, with the SDK alone, a table of tbl's keys and
// indexes named name, and writes tbl's items into it with BatchWriteItem,
// as another program would; it is deleted when t ends.
func createRaw(t testing.TB, db *dynamodb.Client, name string, tbl *table) {
	t.Helper()
	ctx := context.Background()
	defs := map[string]types.ScalarAttributeType{tbl.pk: types.ScalarAttributeType(tbl.keyType(tbl.pk)), tbl.sk: types.ScalarAttributeType(tbl.keyType(tbl.sk))}
	schema := func(pk, sk string) []types.KeySchemaElement {
		out := []types.KeySchemaElement{{AttributeName: aws.String(pk), KeyType: types.KeyTypeHash}}
		if sk != "" {
			out = append(out, types.KeySchemaElement{AttributeName: aws.String(sk), KeyType: types.KeyTypeRange})
		}
		return out
	}
	in := &dynamodb.CreateTableInput{TableName: aws.String(name), BillingMode: types.BillingModePayPerRequest, KeySchema: schema(tbl.pk, tbl.sk)}
	for _, ix := range tbl.indexes {
		defs[ix.pk] = types.ScalarAttributeType(ix.pkType)
		if ix.sk != "" {
			defs[ix.sk] = types.ScalarAttributeType(ix.skType)
		}
		p := &types.Projection{ProjectionType: types.ProjectionType(ix.projection), NonKeyAttributes: ix.nonKey}
		if ix.local {
			in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, types.LocalSecondaryIndex{IndexName: aws.String(ix.name), KeySchema: schema(ix.pk, ix.sk), Projection: p})
		} else {
			in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, types.GlobalSecondaryIndex{IndexName: aws.String(ix.name), KeySchema: schema(ix.pk, ix.sk), Projection: p})
		}
	}
	for _, a := range slices.Sorted(maps.Keys(defs)) {
		in.AttributeDefinitions = append(in.AttributeDefinitions, types.AttributeDefinition{AttributeName: aws.String(a), AttributeType: defs[a]})
	}
	_, err := db.CreateTable(ctx, in)
	require.NoError(t, err)
	t.Cleanup(func() {
		_, err := db.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
		assert.NoError(t, err)
	})
	var reqs []types.WriteRequest
	for _, it := range tbl.items {
		reqs = append(reqs, types.WriteRequest{PutRequest: &types.PutRequest{Item: it.av}})
	}
	for batch := range slices.Chunk(reqs, 25) {
		pending := map[string][]types.WriteRequest{name: batch}
		for try := 0; len(pending[name]) > 0; try++ {
			require.Less(t, try, 10, "BatchWriteItem left items unprocessed ten times")
			out, err := db.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{RequestItems: pending})
			require.NoError(t, err)
			pending = out.UnprocessedItems
		}
	}
}

// shape is what inference made of a model, for comparing two: each
// index; and each item type, keyed by its items' keys, with its key
// templates, each {name} by its place (named, with the type's name, its
// Go name and its Go fields, when names is true), and which of them are
// kept only in keys. The fields and indexes are sorted: a table keeps no
// attribute order, which a Workbench file's NonKeyAttributes give the
// fields, and DescribeTable lists indexes in no set order.
func shape(g *generator, names bool) map[string]string {
	out := map[string]string{}
	for _, t := range g.m.tables {
		for _, ix := range t.indexes {
			out["index "+ix.name] = fmt.Sprintf("local=%v derived=%v %s(%s) %s(%s) %s %v", ix.local, ix.derived, ix.pk, ix.pkType, ix.sk, ix.skType, ix.projection, ix.nonKey)
		}
		for _, e := range t.entities {
			var keys []string
			for _, it := range e.items {
				keys = append(keys, it.pk+" | "+it.sk)
			}
			slices.Sort(keys)
			place := map[*kvar]string{}
			spell := func(parts []tpart) string {
				var b strings.Builder
				for _, p := range parts {
					if p.v == nil {
						b.WriteString(p.lit)
						continue
					}
					if place[p.v] == "" {
						place[p.v] = fmt.Sprintf("{%d}", len(place))
						if names {
							place[p.v] = "{" + p.v.name + "}"
						}
					}
					b.WriteString(place[p.v])
				}
				return b.String()
			}
			s := spell(e.pk) + " | " + spell(e.sk)
			var ixs []string // DynamoDB lists a table's indexes in no set order
			for _, k := range e.indexes {
				ixs = append(ixs, fmt.Sprintf(" | %s: %s %s", k.ix.name, spell(k.pk), spell(k.sk)))
			}
			slices.Sort(ixs)
			s += strings.Join(ixs, "")
			var keyOnly []string
			for _, v := range e.vars {
				if !v.stored {
					keyOnly = append(keyOnly, place[v])
				}
			}
			if names {
				slices.Sort(keyOnly) // found in the indexes' order
			}
			s += " | kept only in keys: " + strings.Join(keyOnly, ",")
			if names {
				n, goName := e.name, e.goName
				if strings.HasPrefix(e.reason, "every item of the table") { // named for the table
					n, goName = "<table>", "<table>"
				}
				var fields []string
				for _, f := range e.st.fields {
					fields = append(fields, fmt.Sprintf("%s %s %s omit=%v ptr=%v keyOnly=%v", f.goName, g.typeName(f.t), f.attr, f.omit, f.ptr, f.keyOnly))
				}
				slices.Sort(fields) // a table keeps no attribute order (NonKeyAttributes)
				s = n + " (Go " + goName + "): " + s + " | fields: " + strings.Join(fields, "; ")
			}
			out["items "+strings.Join(keys, ", ")] = s
		}
	}
	return out
}

// withoutFacets is the Workbench model at path as a live table holding
// its items shows it: every item in TableData, without facets (their names
// and key aliases) or NonKeyAttributes (the order of its attributes).
func withoutFacets(t *testing.T, path string) []byte {
	t.Helper()
	var f map[string]any
	require.NoError(t, json.Unmarshal([]byte(readFile(t, path)), &f))
	for _, tb := range f["DataModel"].([]any) {
		tb := tb.(map[string]any)
		data, _ := tb["TableData"].([]any)
		facets, _ := tb["TableFacets"].([]any)
		for _, fc := range facets {
			more, _ := fc.(map[string]any)["TableData"].([]any)
			data = append(data, more...)
		}
		tb["TableData"] = data
		delete(tb, "TableFacets")
		delete(tb, "NonKeyAttributes")
	}
	b, err := json.Marshal(f)
	require.NoError(t, err)
	return b
}

// TestTableAsWorkbench: a live table holding a Workbench model's items,
// created and written with the SDK alone, as another program would, gives
// what the Workbench file gives: the same indexes (global and local,
// derived or native, keys, projections), the items in the same item
// types, each with the same name, Go name, Go fields (but for their
// order), key templates and attributes kept only in keys. That holds for
// every single-table model in testdata whose facets, if any, are named as
// their items are (online-shop-facets: customer, orderItem, ...), and not
// for these, where the facets say what a table's items cannot:
//
//   - adjlist's exports (testdata/adjlist): facets named for adjlist's
//     kinds (node_USER, edge_FOLLOWS_USER_USER, child_POST_of_AUTHOR,
//     entity_user) and key aliases naming the ids {id}, {from}, {to},
//     {child}; a table gives the types the names of their keys' text
//     (PROFILE, FOLLOWS, info) and the ids the names of their prefixes
//     ({userID}, {authorID}, {uID});
//   - recurring-payments: facets Subscription and Receipts, aliased
//     ACC#AccountId / SUB#SubId#SKU#SKU; a table gives SUB and REC,
//     {accID}, {subID}, {recID};
//   - fluidattacks/skims-database-design.json: one facet, advisories,
//     aliased PLATFORM#platform#PACKAGE#pkg_name; a table's one type is
//     named for the table, and its two samples' platform and package
//     are the items' package_manager and package_name;
//   - fluidattacks/fi_async_processing-design.json: the alias spells
//     ACTION#all as text; a table reads all, after a kind's name, as a
//     value ({actionID}).
//
// For those the table gives the same indexes and item types (the same
// items in each), and what the file gives without its facets.
func TestTableAsWorkbench(t *testing.T) {
	for path, facets := range map[string]bool{
		"testdata/complaint-management/ComplaintManagementSchema.json": false,
		"testdata/online-shop/AnOnlineShop_14.json":                    false,
		"testdata/online-shop-facets/AnOnlineShop_facets.json":         false,
		"testdata/device-state-log/DeviceStateLog_7.json":              false,
		"testdata/chat-system/ChatSystemSchema.json":                   false,
		"testdata/session-management/SessionManagementSchema.json":     false,
		"testdata/social-network/SocialNetworkSchema.json":             false,
		"testdata/meetinger/Meetinger.json":                            false,
		"testdata/bookit/data-model.json":                              false,
		"testdata/variants/lsi.json":                                   false,
		"testdata/variants/gsi1-plain.json":                            false,
		"testdata/recurring-payments/RecurringPaymentsSchema.json":     true,
		"testdata/fluidattacks/skims-database-design.json":             true,
		"testdata/fluidattacks/fi_async_processing-design.json":        true,
		"testdata/adjlist/blog.json":                                   true,
		"testdata/adjlist/enrollment.json":                             true,
		"testdata/adjlist/gamingprofile.json":                          true,
		"testdata/adjlist/graph.json":                                  true,
		"testdata/adjlist/invoices.json":                               true,
		"testdata/adjlist/orders.json":                                 true,
		"testdata/adjlist/social.json":                                 true,
		"testdata/adjlist/socialnetwork.json":                          true,
		"testdata/adjlist/workspaces.json":                             true,
	} {
		t.Run(path, func(t *testing.T) {
			db := localEnv(t)
			file := built(t, path)
			require.Len(t, file.m.tables, 1)
			name := ddbtest.TableName(t)
			createRaw(t, db, name, file.m.tables[0])

			var progress bytes.Buffer
			got, err := buildTable(context.Background(), name, defaultSample+10, "model", &progress)
			require.NoError(t, err)
			assert.Len(t, got.m.tables[0].items, len(file.m.tables[0].items))
			assert.Contains(t, progress.String(), fmt.Sprintf("adjlist-gen: table %s: read %d items\n", name, len(file.m.tables[0].items)))
			if !facets {
				assert.Equal(t, shape(file, true), shape(got, true))
				return
			}
			assert.NotEqual(t, shape(file, true), shape(got, true), "a model whose facets the table gives: move it to the others")
			assert.Equal(t, slices.Sorted(maps.Keys(shape(file, false))), slices.Sorted(maps.Keys(shape(got, false))), "the same indexes and item types")
			want, err := build(withoutFacets(t, path), "model", path)
			require.NoError(t, err)
			assert.Equal(t, shape(want, true), shape(got, true))
		})
	}
}

// TestNumberKeysTableAsWorkbench: a live table keyed on a number (-table)
// gives what its Workbench file gives: the same key types, item types and
// key templates.
func TestNumberKeysTableAsWorkbench(t *testing.T) {
	var f struct{ DataModel []json.RawMessage }
	require.NoError(t, json.Unmarshal([]byte(readFile(t, "testdata/variants/numkeys.json")), &f))
	require.Len(t, f.DataModel, 2)
	for _, raw := range f.DataModel {
		var entry map[string]any
		require.NoError(t, json.Unmarshal(raw, &entry))
		t.Run(entry["TableName"].(string), func(t *testing.T) {
			db := localEnv(t)
			name := ddbtest.TableName(t)
			entry["TableName"] = name // names its one item type, as the table's does
			src, err := json.Marshal(map[string]any{"DataModel": []any{entry}})
			require.NoError(t, err)
			file, err := build(src, "model", "numkeys.json")
			require.NoError(t, err)
			createRaw(t, db, name, file.m.tables[0])
			got, err := buildTable(context.Background(), name, defaultSample, "model", io.Discard)
			require.NoError(t, err)
			require.Len(t, got.m.tables, 1)
			want, tbl := file.m.tables[0], got.m.tables[0]
			assert.Equal(t, [2]bool{want.pkN, want.skN}, [2]bool{tbl.pkN, tbl.skN})
			assert.Equal(t, shape(file, true), shape(got, true))
		})
	}
}

// TestTableFlags: -table's flags, given wrong, are an error naming the
// flag, exit status 2, before any request and with nothing written.
func TestTableFlags(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.json")
	require.NoError(t, os.WriteFile(path, []byte(tinyModel), 0o644))
	for name, c := range map[string]struct {
		args []string
		want string
	}{
		"-table and -workbench":      {[]string{"-table", "orders", "-workbench", path}, "-workbench and -table are two sources: give one"},
		"-sample 0":                  {[]string{"-table", "orders", "-sample", "0"}, "-sample 0: want how many items to read, 1 or more"},
		"-sample negative":           {[]string{"-table", "orders", "-sample", "-3"}, "-sample -3: want how many items to read, 1 or more"},
		"-sample not a number":       {[]string{"-table", "orders", "-sample", "many"}, `invalid value "many" for flag -sample`},
		"-sample with -workbench":    {[]string{"-workbench", path, "-sample", "10"}, "-sample is -table's"},
		"-embed-samples, -workbench": {[]string{"-workbench", path, "-embed-samples"}, "-embed-samples is -table's"},
		"-table, package main":       {[]string{"-table", "orders", "-package", "main"}, "package name main"},
		"neither source":             {[]string{"-package", "x"}, "-workbench or -table is required"},
	} {
		t.Run(name, func(t *testing.T) {
			// No endpoint, region or credentials: a request would fail
			// otherwise than these messages say.
			t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:1")
			t.Setenv("AWS_REGION", "")
			out := filepath.Join(dir, "out")
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, runIO(append(c.args, "-o", out), nil, &stdout, &stderr))
			assert.Contains(t, stderr.String(), c.want)
			assert.Empty(t, stdout.String())
			assert.NoDirExists(t, out, "nothing written")
		})
	}
}

// TestTableErrors: a table that does not exist, a configuration without
// a region or credentials, or an endpoint that does not answer is an
// error saying so (errNoTable, errNoRegion, errNoCredentials, errRead),
// exit status 2, with nothing written. The endpoint is DynamoDB Local's,
// or none that answers: nothing reaches AWS.
func TestTableErrors(t *testing.T) {
	for name, c := range map[string]struct {
		env  map[string]string
		err  error
		want string
	}{
		"no such table":     {err: errNoTable, want: "no such table: TestTableErrors_no_such_table"},
		"no region":         {env: map[string]string{"AWS_REGION": ""}, err: errNoRegion, want: "no AWS region: set AWS_REGION"},
		"no credentials":    {env: map[string]string{"AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": ""}, err: errNoCredentials, want: "no AWS credentials: set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"},
		"no server answers": {env: map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "http://127.0.0.1:1", "AWS_MAX_ATTEMPTS": "1"}, err: errRead, want: "cannot read the table"},
	} {
		t.Run(name, func(t *testing.T) {
			localEnv(t)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			table := ddbtest.TableName(t)
			_, err := buildTable(context.Background(), table, 10, "model", io.Discard)
			require.ErrorIs(t, err, c.err)

			out := filepath.Join(t.TempDir(), "out")
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, runIO([]string{"-table", table, "-o", out}, nil, &stdout, &stderr))
			assert.Contains(t, stderr.String(), "adjlist-gen: "+c.want)
			assert.NoDirExists(t, out, "nothing written")
		})
	}
}

// TestTableRun: -table writes the package of a live table, its progress
// on stderr. Without -embed-samples, model.go holds none of the sampled
// items' values (ids, keys, data), only the literal text of its key
// templates ("metadata"); with it, the package's test holds the items. -sample reads
// that many items, and the package says it was inferred from a sample.
func TestTableRun(t *testing.T) {
	db := localEnv(t)
	file := built(t, "testdata/complaint-management/ComplaintManagementSchema.json")
	table := ddbtest.TableName(t)
	createRaw(t, db, table, file.m.tables[0])
	dir := t.TempDir()

	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, runIO([]string{"-table", table, "-o", filepath.Join(dir, "a")}, nil, &stdout, &stderr), stderr.String())
	assert.Contains(t, stderr.String(), "adjlist-gen: table "+table+": read 9 items\n")
	code := readFile(t, filepath.Join(dir, "a", "model.go"))
	assert.Contains(t, code, "// Code generated by adjlist-gen from table "+table+"; DO NOT EDIT.")
	assert.Contains(t, code, `adjlist.NewEntity[Comm](table, "comm", "{complaint_id}", "comm#{comm_date}#{comm_id}"`)
	assert.Contains(t, code, "No sampled item is in this package")
	var values []string
	for _, it := range file.m.tables[0].items {
		for _, v := range it.av {
			if s, ok := v.(*types.AttributeValueMemberS); ok && s.Value != "metadata" {
				values = append(values, s.Value)
			}
		}
	}
	require.Contains(t, values, "Complaint123")
	test := readFile(t, filepath.Join(dir, "a", "model_test.go"))
	for _, v := range values {
		assert.NotContains(t, code, v, "a sampled value in model.go")
		assert.NotContains(t, test, v, "a sampled value in model_test.go")
	}

	// Notes name items by their place in the sample, not their keys,
	// which stderr shows.
	chat := built(t, "testdata/chat-system/ChatSystemSchema.json")
	chatTable := ddbtest.TableName(t) + "-chat"
	createRaw(t, db, chatTable, chat.m.tables[0])
	stderr.Reset()
	require.Equal(t, 0, runIO([]string{"-table", chatTable, "-o", filepath.Join(dir, "chat")}, nil, &stdout, &stderr), stderr.String())
	assert.Contains(t, stderr.String(), "User: a part of SK holds the item's CreatedAt on 4 of 5 items, but not on item 4 (User:UserA / 2023-04-01T13:00:00.001Z)")
	code = readFile(t, filepath.Join(dir, "chat", "model.go"))
	assert.Contains(t, strings.Join(strings.Fields(strings.ReplaceAll(code, "\n//", " ")), " "), "but not on item 4: it is an attribute of its own")
	for _, v := range []string{"UserA", "2023-04-01T13:00:00.001Z"} {
		assert.NotContains(t, code, v, "a sampled value in model.go")
	}

	stderr.Reset()
	require.Equal(t, 0, runIO([]string{"-table", table, "-embed-samples", "-sample", "4", "-o", filepath.Join(dir, "b")}, nil, &stdout, &stderr), stderr.String())
	assert.Contains(t, stderr.String(), "adjlist-gen: table "+table+": read 4 items\n")
	assert.Contains(t, stderr.String(), "adjlist-gen: inferred from a sample: the first 4 items a Scan returned; the table may hold more")
	code = readFile(t, filepath.Join(dir, "b", "model.go"))
	assert.Contains(t, code, "The package's test writes the sampled items")
	assert.Contains(t, code, "inferred from a sample: the first 4 items")
	assert.Contains(t, readFile(t, filepath.Join(dir, "b", "model_test.go")), "Complaint123")
	assert.Empty(t, stdout.String())
}

// tableMarker precedes the commands of docs/existing-tables.md that read a live table.
const tableMarker = "<!-- run by TestReadmeTable against DynamoDB Local -->\n```sh\n"

// TestReadmeTable runs docs/existing-tables.md's -table commands as written, its
// exports setting the environment (the endpoint the tests' DynamoDB
// Local's), on a table holding the complaint management model's items:
// the dry run prints the model and writes nothing, and the run writes the
// package.
func TestReadmeTable(t *testing.T) {
	readme := readFile(t, "../../docs/existing-tables.md")
	start := strings.Index(readme, tableMarker)
	require.GreaterOrEqual(t, start, 0, "docs/existing-tables.md has no -table commands")
	block := readme[start+len(tableMarker):]
	block = block[:strings.Index(block, "```")]

	db := localEnv(t)
	endpoint := os.Getenv("AWS_ENDPOINT_URL_DYNAMODB")
	file := built(t, "testdata/complaint-management/ComplaintManagementSchema.json")
	table := ddbtest.TableName(t)
	createRaw(t, db, table, file.m.tables[0])
	dir := t.TempDir()
	t.Chdir(dir)
	var ran []string
	for _, line := range strings.Split(block, "\n") {
		line, _, _ = strings.Cut(line, "#")
		args := strings.Fields(line)
		switch {
		case len(args) == 0:
			continue
		case args[0] == "export":
			for _, kv := range args[1:] {
				k, v, ok := strings.Cut(kv, "=")
				require.True(t, ok, kv)
				if k == "AWS_ENDPOINT_URL_DYNAMODB" {
					assert.Equal(t, "http://localhost:8000", v, "DynamoDB Local's default port")
					v = endpoint
				}
				t.Setenv(k, v)
			}
			continue
		}
		require.Equal(t, []string{"go", "tool", "adjlist-gen"}, args[:3], line)
		args = args[3:]
		for i, a := range args {
			if a == file.m.tables[0].name {
				args[i] = table
			}
		}
		var stdout, stderr bytes.Buffer
		require.Equal(t, 0, runIO(args, nil, &stdout, &stderr), "%s: %s", line, &stderr)
		if slices.Contains(args, "-dry-run") {
			assert.Contains(t, stdout.String(), "  item type comm (Go type Comm): 5 items")
			assert.NoDirExists(t, filepath.Join(dir, "complaints"))
			ran = append(ran, "dry run")
			continue
		}
		assert.FileExists(t, filepath.Join(dir, "complaints", "model.go"))
		assert.FileExists(t, filepath.Join(dir, "complaints", "model_test.go"))
		ran = append(ran, "run")
	}
	assert.Equal(t, []string{"dry run", "run"}, ran)
}

// TestDescribedTable: a table's description becomes the Workbench entry a
// file would hold: its keys with their types, each index with its keys
// and projection, a local index with the table's partition key; an index
// keyed on several attributes (which a Workbench model cannot hold) is
// left out with a note naming it.
func TestDescribedTable(t *testing.T) {
	k := func(name string, kt types.KeyType) types.KeySchemaElement {
		return types.KeySchemaElement{AttributeName: aws.String(name), KeyType: kt}
	}
	d := &types.TableDescription{
		TableName: aws.String("orders"),
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("PK"), AttributeType: "S"}, {AttributeName: aws.String("SK"), AttributeType: "S"},
			{AttributeName: aws.String("total"), AttributeType: "N"}, {AttributeName: aws.String("a"), AttributeType: "S"}, {AttributeName: aws.String("b"), AttributeType: "S"},
		},
		KeySchema: []types.KeySchemaElement{k("PK", types.KeyTypeHash), k("SK", types.KeyTypeRange)},
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndexDescription{
			{IndexName: aws.String("byA"), KeySchema: []types.KeySchemaElement{k("a", types.KeyTypeHash)}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
			{IndexName: aws.String("byAB"), KeySchema: []types.KeySchemaElement{k("a", types.KeyTypeHash), k("b", types.KeyTypeHash)}, Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndexDescription{
			{IndexName: aws.String("byTotal"), KeySchema: []types.KeySchemaElement{k("PK", types.KeyTypeHash), k("total", types.KeyTypeRange)},
				Projection: &types.Projection{ProjectionType: types.ProjectionTypeInclude, NonKeyAttributes: []string{"a"}}},
		},
	}
	w := describedTable(d)
	assert.Equal(t, "orders", w.TableName)
	assert.Equal(t, wbKeys{PartitionKey: &wbAttr{"PK", "S"}, SortKey: &wbAttr{"SK", "S"}}, w.KeyAttributes)
	require.Len(t, w.GSIs, 1)
	assert.Equal(t, "byA", w.GSIs[0].IndexName)
	assert.Equal(t, wbKeys{PartitionKey: &wbAttr{"a", "S"}}, w.GSIs[0].KeyAttributes)
	assert.Equal(t, "KEYS_ONLY", w.GSIs[0].Projection.ProjectionType)
	require.Len(t, w.LSIs, 1)
	assert.Equal(t, wbKeys{PartitionKey: &wbAttr{"PK", "S"}, SortKey: &wbAttr{"total", "N"}}, w.LSIs[0].KeyAttributes)
	assert.Equal(t, "INCLUDE", w.LSIs[0].Projection.ProjectionType)
	assert.Equal(t, []string{"a"}, w.LSIs[0].Projection.NonKeyAttributes)
	assert.Equal(t, []string{"index byAB is left out: its keys are of several attributes, which adjlist-gen does not read; declare it by hand (adjlist.Index with PartitionAttributes and SortAttributes)"}, w.liveNotes)
}

// TestSampleMayHoldMore: -table says the package was inferred from a
// sample that may leave items out exactly when the table holds more items
// than -sample; a table of exactly -sample items holds no more, which the
// read knows by asking for one item more.
func TestSampleMayHoldMore(t *testing.T) {
	db := localEnv(t)
	file := built(t, "testdata/complaint-management/ComplaintManagementSchema.json")
	n := len(file.m.tables[0].items)
	name := ddbtest.TableName(t)
	createRaw(t, db, name, file.m.tables[0])
	for _, c := range []struct {
		sample int
		more   bool
	}{{n - 1, true}, {n, false}, {n + 1, false}, {1, true}} {
		t.Run(fmt.Sprintf("-sample %d of %d items", c.sample, n), func(t *testing.T) {
			var progress bytes.Buffer
			g, err := buildTable(context.Background(), name, c.sample, "model", &progress)
			require.NoError(t, err)
			require.Len(t, g.m.tables[0].items, min(n, c.sample))
			assert.Contains(t, progress.String(), fmt.Sprintf("read %d items\n", min(n, c.sample)))
			notes := strings.Join(g.notes(), "\n")
			if c.more {
				assert.Contains(t, notes, fmt.Sprintf("inferred from a sample: the first %d items a Scan returned; the table may hold more", c.sample))
			} else {
				assert.NotContains(t, notes, "may hold more")
			}
		})
	}
}
