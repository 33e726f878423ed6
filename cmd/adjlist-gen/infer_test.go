package main

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// built infers the data model at path.
func built(t testing.TB, path string) *generator {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	g, err := build(src, "model", path)
	require.NoError(t, err)
	return g
}

// spelledAs writes an entity as "PK | SK | KeyOnly | index keys".
func spelledAs(e *entity) string {
	var keyOnly []string
	for _, v := range e.vars {
		if !v.stored {
			keyOnly = append(keyOnly, v.name)
		}
	}
	out := fmt.Sprintf("%s | %s | %s", template(e.pk), template(e.sk), strings.Join(keyOnly, ","))
	for _, k := range e.indexes {
		out += fmt.Sprintf(" | %s: %s %s", k.ix.name, template(k.pk), template(k.sk))
	}
	return out
}

// TestInferredKeys: the item types and key templates inferred from
// published models and from adjlist's own exports, each {name} the
// item's own attribute where one holds its value, else kept only in the
// keys (listed third). The complaint management design comes out as the
// library's own test of it declares it by hand (datafields_test.go).
func TestInferredKeys(t *testing.T) {
	for path, want := range map[string]map[string]string{
		"testdata/complaint-management/ComplaintManagementSchema.json": {
			"comm":     "{complaint_id} | comm#{comm_date}#{comm_id} | complaint_id",
			"metadata": "{complaint_id} | metadata | ",
		},
		"testdata/online-shop/AnOnlineShop_14.json": {
			"customer":      "c#{customerID} | c#{customerID} | customerID",
			"product":       "p#{productID} | p#{productID} | productID",
			"warehouse":     "w#{warehouseID} | w#{warehouseID} | warehouseID",
			"warehouseItem": "p#{productID} | w#{warehouseID} | productID,warehouseID,gsi2WarehouseID,gsi2ProductID | GSI2: w#{gsi2WarehouseID} p#{gsi2ProductID}",
			"orderItem":     "o#{orderID} | p#{productID} | orderID,productID,date,customerID | GSI1: p#{productID} {date} | GSI2: c#{customerID} {date}",
			"order":         "o#{orderID} | c#{customerID} | orderID,customerID",
			"invoice":       "o#{orderID} | i#{invoiceID} | orderID,invoiceID,customerID | GSI1: i#{invoiceID} i#{invoiceID} | GSI2: c#{customerID} {Date}",
			"shipment":      "o#{orderID} | sh#{shipmentID} | orderID,shipmentID,warehouseID | GSI1: sh#{shipmentID} sh#{shipmentID} | GSI2: w#{warehouseID} sh#{shipmentID}",
			"shipmentItem":  "o#{orderID} | shp#{shipmentItemID} | orderID,shipmentItemID,shipmentID,productID | GSI1: sh#{shipmentID} p#{productID}",
		},
		"testdata/chat-system/ChatSystemSchema.json": {
			"User": "User:{userID} | {date} | userID,date",
			"Room": "Room:{RoomID} | meta | RoomID",
		},
		"testdata/device-state-log/DeviceStateLog_7.json": {
			"DeviceStateLog": "d#{deviceIDKey} | {State}#{Date} | deviceIDKey",
		},
		"testdata/recurring-payments/RecurringPaymentsSchema.json": {
			"Subscription": "ACC#{AccountId} | SUB#{SubId}#SKU#{SKU} | AccountId,SubId",
			"Receipts":     "ACC#{AccountId} | REC#{ProcessedDateKey}#SKU#{SKU} | AccountId,ProcessedDateKey",
		},
		"testdata/session-management/SessionManagementSchema.json": {
			"child": "suuid#{suuid} | child#suuid#{suuid2} | suuid,suuid2",
			"c":     "suuid#{suuid} | c#{cID} | suuid,cID",
		},
		"testdata/social-network/SocialNetworkSchema.json": {
			"info":      `u#{uID} | "info" | uID`,
			"count":     `u#{uID} | "count" | uID`,
			"follower":  "u#{uID}#follower | u#{uID2} | uID,uID2",
			"following": "u#{uID}#following | u#{uID2} | uID,uID2",
			"post":      "u#{uID}#post | p#{postID} | uID,postID",
			"likelist":  "p#{postID}#likelist | u#{uID} | postID,uID",
			"likecount": `p#{postID}#likecount | "count" | postID`,
			"timeline":  "u#{uID}#timeline | p#{postID}#u#{uID2} | uID,postID,uID2",
		},
		"testdata/adjlist/enrollment.json": {
			"node_CRS":            "CRS#{id} | METADATA | id",
			"node_STU":            "STU#{id} | PROFILE | id",
			"edge_ENROLL_STU_CRS": "STU#{from} | ENROLL#CRS#{to} | from,to | GSI1: CRS#{to} STU#{from}",
		},
		"testdata/adjlist/blog.json": {
			"node_AUTHOR":                 "AUTHOR#{id} | PROFILE | id",
			"child_POST_of_AUTHOR":        "AUTHOR#{id} | POST#{child} | id,child | GSI2: STATUS#{status} POST#{child}",
			"child_SESSION_of_AUTHOR":     "AUTHOR#{id} | SESSION#{child} | id,child",
			"edge_FOLLOWS_AUTHOR_AUTHOR":  "AUTHOR#{from} | FOLLOWS#AUTHOR#{to} | from,to | GSI1: AUTHOR#{to} AUTHOR#{from}",
			"node_TAG":                    "TAG#{id} | TAG#{id} | id",
			"edge_TAGGED_TAG_AUTHOR_POST": "TAG#{from} | TAGGED#AUTHOR#{toParent}#POST#{to} | from,toParent,to | GSI1: AUTHOR#{toParent}#POST#{to} TAG#{from}",
		},
		"testdata/adjlist/social.json": {
			"node_USER":              "USER#{id} | PROFILE | id",
			"edge_FOLLOWS_USER_USER": "USER#{from} | FOLLOWS#USER#{to} | from,to,gsi1PKPart3 | GSI1: USER#{to}#{gsi1PKPart3} USER#{from}",
		},
		"testdata/adjlist/graph.json": {
			"node_PERSON":          "PERSON#{id} | PERSON#{id} | id | GSI1: NAME#{name} PERSON#{id}",
			"node_SKILL":           "SKILL#{id} | SKILL#{id} | id | GSI1: NAME#{name} SKILL#{id}",
			"counter_PEOPLE":       "SKILL#{id} | PEOPLE | id",
			"child_BORN_of_PERSON": "PERSON#{id} | BORN#{child} | id,child,dataPart3 | GSI1: BORN#{child}#{dataPart3} PERSON#{id}",
		},
	} {
		t.Run(path, func(t *testing.T) {
			g := built(t, path)
			got := map[string]string{}
			for _, e := range g.m.tables[0].entities {
				got[e.name] = spelledAs(e)
			}
			for name, w := range want {
				assert.Equal(t, w, got[name], name)
			}
		})
	}
}

// TestItemTypes: types come from facets, else from an attribute whose
// values tell the key shapes apart (whatever its name), else from the
// key shapes.
func TestItemTypes(t *testing.T) {
	g := built(t, "testdata/online-shop/AnOnlineShop_14.json")
	assert.Equal(t, `the items whose EntityType is "orderItem"`, g.m.tables[0].entities[4].reason)

	kind := strings.ReplaceAll(readFile(t, "testdata/online-shop/AnOnlineShop_14.json"), `"EntityType"`, `"kind"`)
	g2, err := build([]byte(kind), "model", "kind.json")
	require.NoError(t, err)
	assert.Equal(t, `the items whose kind is "orderItem"`, g2.m.tables[0].entities[4].reason)

	g = built(t, "testdata/device-state-log/DeviceStateLog_7.json")
	require.Len(t, g.m.tables[0].entities, 1, "State varies within one key shape: it is data, not a type")
	g = built(t, "testdata/chat-system/ChatSystemSchema.json")
	assert.Equal(t, "the items whose keys are shaped Room:* / meta", g.m.tables[0].entities[1].reason)
	g = built(t, "testdata/recurring-payments/RecurringPaymentsSchema.json")
	assert.Equal(t, "the items of facet Receipts", g.m.tables[0].entities[1].reason)
}

// TestNoItemDropped: every item of every model is in exactly one entity,
// declared or reported as undeclared, and every facet with items is one
// or more entities.
func TestNoItemDropped(t *testing.T) {
	for _, m := range models(t) {
		g := built(t, m.path)
		for _, tb := range g.m.tables {
			seen := map[*item]int{}
			for _, e := range slices.Concat(tb.entities, tb.undeclared) {
				for _, it := range e.items {
					seen[it]++
				}
			}
			assert.Len(t, seen, len(tb.items), m.name)
			for it, n := range seen {
				assert.Equal(t, 1, n, "%s: %s", m.name, it.where)
			}
		}
	}
}

// TestAmbiguityReported: where inference has a choice, a line on stderr
// names the items, and the generated code says so.
func TestAmbiguityReported(t *testing.T) {
	for name, c := range map[string]struct {
		model string
		want  []string // in stderr and in model.go
	}{
		"a key part that is an attribute on most items": {readFile(t, "testdata/chat-system/ChatSystemSchema.json"),
			[]string{"User: a part of SK holds the item's CreatedAt on 4 of 5 items, but not on TableData[3] (User:UserA / 2023-04-01T13:00:00.001Z): it is an attribute of its own, date, kept only in the keys"}},
		"an index key on some items only": {readFile(t, "testdata/online-shop/AnOnlineShop_14.json"),
			[]string{"warehouseItem: GSI2's GSI2-PK is on 2 of its 3 items, not on TableData[9] (p#99887 / w#12376)"}},
		"one sample item": {readFile(t, "testdata/online-shop/AnOnlineShop_14.json"),
			[]string{"order has one sample item, TableData[12] (o#12345 / c#12345), from which its keys are read alone: o#{orderID} / c#{customerID}"}},
		"an alias naming another attribute": {readFile(t, "testdata/recurring-payments/RecurringPaymentsSchema.json"),
			[]string{"Receipts: a part of SK would be named ProcessedDate, but the items' ProcessedDate holds other values: it is ProcessedDateKey"}},
		"one facet, two key shapes": {twoShapes,
			[]string{"equipment: facet equipment TableData[1] (player001 / EQUIPMENTS#001EQUIPMENTS#002) have keys shaped unlike the other 2 items of equipment (player001 / EQUIPMENTS#001): they are an entity of their own, equipment2"}},
		"a sharded access pattern": {readFile(t, "testdata/adjlist/social.json"),
			[]string{`access pattern "USER's FOLLOWS edges from USER (reverse)" has no method: it reads an index partition spread over shards`}},
		"a number DynamoDB stores otherwise": {strings.Replace(tinyModel, `"name": {"S": "Ada"}`, `"name": {"S": "Ada"}, "n": {"N": "1.50"}`, 1),
			[]string{`TableData[0]: attribute n holds numbers DynamoDB stores otherwise ({"n":{"N":"1.50"}} as {"n":{"N":"1.5"}}): the test compares the items as DynamoDB stores them`}},
		"an index keyed on an attribute no item has": {strings.Replace(tinyModel, `"TableData"`, `"GlobalSecondaryIndexes": [{"IndexName": "byName", "KeyAttributes": {"PartitionKey": {"AttributeName": "nmae", "AttributeType": "S"}}}], "TableData"`, 1),
			[]string{"index byName: no sample item has nmae, its partition key, so the index holds none of them (is the name misspelt?)"}},
		"no sample items": {strings.Replace(tinyModel, `"TableData": [`, `"TableData": [], "X": [`, 1),
			[]string{"table tiny has no sample items, from which adjlist-gen infers item types: it has no entity"}},
		"two types whose keys could be the same": {overlapping, []string{
			"item types a and b have keys T#{tID} / info and T#{tID} / {skPart1}, which could spell the same key: adjlist refuses two such entities on one table, so b is not declared, and its items (TableData[2] (T#3 / 9), TableData[3] (T#4 / 8)) are left out of the package's test; give one of the two a key text of its own to declare both",
			"attributes kind, other each tell the item types apart: typed by kind, which has the most values"}},
	} {
		t.Run(name, func(t *testing.T) {
			files, notes, err := generate([]byte(c.model), "model", "model.json")
			require.NoError(t, err)
			stderr := strings.Join(notes, "\n")
			code := strings.Join(strings.Fields(strings.ReplaceAll(string(files[0].text), "\n//", " ")), " ")
			for _, w := range c.want {
				assert.Contains(t, stderr, "adjlist-gen: "+w)
				if !strings.HasPrefix(w, "access pattern") {
					assert.Contains(t, code, strings.Join(strings.Fields(w), " "), "model.go says so")
				}
			}
		})
	}
}

// overlapping has two item types, told apart by kind (and by other),
// whose templates could spell the same keys: T#{tID} / info and
// T#{tID} / {skPart1}.
const overlapping = `{"DataModel": [{
  "TableName": "things",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
  "TableData": [
    {"PK": {"S": "T#1"}, "SK": {"S": "info"}, "kind": {"S": "a"}, "other": {"S": "p"}},
    {"PK": {"S": "T#2"}, "SK": {"S": "info"}, "kind": {"S": "a"}, "other": {"S": "p"}},
    {"PK": {"S": "T#3"}, "SK": {"S": "9"}, "kind": {"S": "b"}, "other": {"S": "q"}},
    {"PK": {"S": "T#4"}, "SK": {"S": "8"}, "kind": {"S": "b"}, "other": {"S": "q"}}
  ]
}]}`

// twoShapes has a facet whose items' keys have two shapes.
const twoShapes = `{"DataModel": [{
  "TableName": "things",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
  "TableFacets": [{"FacetName": "equipment", "KeyAttributeAlias": {"PartitionKeyAlias": "playerID", "SortKeyAlias": "EQUIPMENTS#EquipID"}, "TableData": [
    {"PK": {"S": "player001"}, "SK": {"S": "EQUIPMENTS#001"}},
    {"PK": {"S": "player001"}, "SK": {"S": "EQUIPMENTS#001EQUIPMENTS#002"}},
    {"PK": {"S": "player001"}, "SK": {"S": "EQUIPMENTS#003"}}
  ]}]
}]}`

// TestDeterministic: the same model gives the same files, byte for byte.
func TestDeterministic(t *testing.T) {
	for _, m := range models(t) {
		src := []byte(readFile(t, m.path))
		a, na, err := generate(src, "model", "m.json")
		require.NoError(t, err)
		b, nb, err := generate(src, "model", "m.json")
		require.NoError(t, err)
		assert.Equal(t, na, nb, m.name)
		require.Len(t, b, len(a))
		for i := range a {
			assert.True(t, bytes.Equal(a[i].text, b[i].text), "%s %s", m.name, a[i].name)
		}
	}
}

// TestGoTypes: attribute values give Go types, each checked by the round
// trip: numbers as int64 or float64 where those write them back as
// DynamoDB stores them, else attributevalue.Number; mixed types a Value.
func TestGoTypes(t *testing.T) {
	src := `{"DataModel": [{"TableName": "things",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}, "SortKey": {"AttributeName": "SK", "AttributeType": "S"}},
  "TableData": [
    {"PK": {"S": "a#1"}, "SK": {"S": "v"}, "i": {"N": "3"}, "f": {"N": "1.50"}, "big": {"N": "12345678901234567890.5"}, "b": {"BOOL": false}, "mixed": {"S": "x"},
     "ss": {"SS": ["b", "a"]}, "ns": {"NS": ["1", "2"]}, "l": {"L": [{"S": "x"}]}, "m": {"M": {"k": {"S": "v"}}}, "bin": {"B": "AAE="}, "opt": {"N": "0"}, "nul": {"NULL": true}},
    {"PK": {"S": "a#2"}, "SK": {"S": "v"}, "i": {"N": "-4"}, "f": {"N": "2"}, "big": {"N": "1"}, "b": {"BOOL": true}, "mixed": {"N": "1"},
     "ss": {"SS": ["c"]}, "ns": {"NS": ["3"]}, "l": {"L": []}, "m": {"M": {}}, "bin": {"B": "AA=="}, "nul": {"NULL": true}}
  ]}]}`
	files, _, err := generate([]byte(src), "model", "t.json")
	require.NoError(t, err)
	code := string(files[0].text)
	for _, want := range []string{
		"I     int64                 `dynamodbav:\"i\"`",
		"F     float64               `dynamodbav:\"f\"`",
		"Big   attributevalue.Number `dynamodbav:\"big\"`",
		"B     bool                  `dynamodbav:\"b\"`",
		"Mixed Value                 `dynamodbav:\"mixed\"`",
		"Ss    []string              `dynamodbav:\"ss,stringset\"`",
		"Ns    []int64               `dynamodbav:\"ns,numberset\"`",
		"L     []string              `dynamodbav:\"l\"`",
		"M     ThingsM               `dynamodbav:\"m\"`",
		"Bin   []byte                `dynamodbav:\"bin\"`",
		"Opt   *int64                `dynamodbav:\"opt,omitempty\"`",
		"Nul   Value                 `dynamodbav:\"nul\"`",
		"K string `dynamodbav:\"k,omitempty\"`",
	} {
		assert.Contains(t, code, want)
	}
	assert.Contains(t, string(files[1].text), `{"PK":{"S":"a#1"}`, "the test's items, numbers as DynamoDB stores them")
	assert.Contains(t, string(files[1].text), `"f":{"N":"1.5"}`)

	// NULL on one item, absent on another: attributevalue decodes NULL
	// into an optional field as no value, so no Go type gives it back.
	optionalNull := strings.Replace(src, `, "nul": {"NULL": true}}`, "}", 1)
	_, _, err = generate([]byte(optionalNull), "model", "t.json")
	require.ErrorIs(t, err, errBadInput)
	assert.ErrorContains(t, err, "attribute nul does not come back as it was")
}

// TestCanonicalNumber: numbers as DynamoDB stores them.
func TestCanonicalNumber(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "-0": "0", "1.50": "1.5", "0100": "100", "1e3": "1000", "1.5E-3": "0.0015", "+7": "7",
		"-12.000": "-12", ".5": "0.5", "5.": "5", "123456789012345678901234567890": "123456789012345678901234567890",
		"9.9E125": "99" + strings.Repeat("0", 124), "-1E-130": "-0." + strings.Repeat("0", 129) + "1",
	} {
		got, err := canonicalNumber(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "-", "1x", "1e", "1.2.3", "e5", "1234567890123456789012345678901234567890", "1e126", "-1e126", "1e400", "1e-131", "0.1e-130"} {
		_, err := canonicalNumber(bad)
		assert.Error(t, err, bad)
	}
}

// TestNesting: DynamoDB's 32 levels of maps and lists, the item the
// first: an attribute may nest 31, not 32.
func TestNesting(t *testing.T) {
	nest := func(depth int, list bool) types.AttributeValue {
		var v types.AttributeValue = &types.AttributeValueMemberS{Value: "x"}
		for range depth {
			if list {
				v = &types.AttributeValueMemberL{Value: []types.AttributeValue{v}}
			} else {
				v = &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"a": v}}
			}
		}
		return v
	}
	for _, list := range []bool{false, true} {
		_, err := checkValue(nest(31, list))
		require.NoError(t, err)
		_, err = checkValue(nest(32, list))
		require.ErrorContains(t, err, "nested deeper than DynamoDB's 32 levels")
	}
}

// TestGoName: attribute names as Go names.
func TestGoName(t *testing.T) {
	for in, want := range map[string]string{
		"comm_id": "CommID", "imageUrl": "ImageURL", "GSI1-PK": "GSI1PK", "follower#": "Follower", "EntityType": "EntityType",
		"ttl": "TTL", "URLPath": "URLPath", "customerID": "CustomerID", "2fa": "X2fa", "": "Field", "default-card": "DefaultCard",
	} {
		assert.Equal(t, want, goName(in), in)
	}
	assert.Equal(t, "deviceID", lowerFirst("DeviceID"))
	assert.Equal(t, "urlPath", lowerFirst("URLPath"))
	assert.Equal(t, "gsi1", lowerFirst("GSI1"))
	assert.Equal(t, "toParent", sanitizeName("to parent", ""))
}

// TestOverlap: two templates overlap when some key could be spelled by
// both, as adjlist decides.
func TestOverlap(t *testing.T) {
	v := &kvar{name: "x"}
	parts := func(s ...any) []tpart {
		var out []tpart
		for _, p := range s {
			if p == nil {
				out = append(out, tpart{v: v})
			} else {
				out = append(out, tpart{lit: p.(string)})
			}
		}
		return out
	}
	assert.True(t, overlap(parts("u#", nil), parts("u#", nil)))
	assert.False(t, overlap(parts("u#", nil), parts("p#", nil)))
	assert.False(t, overlap(parts("u#", nil), parts("u#", nil, "#x")))
	assert.True(t, overlap(parts(nil), parts("info")))
	assert.False(t, overlap(parts("User:", nil), parts("Room:", nil)))
}

// TestNumberTableKeys: a table whose partition or sort key is a number
// (N) gets entities whose template for that key is one {field}: the
// item's own number attribute holding it, else a field kept only in the
// keys, int64 when every sample value is an integer, float64 otherwise.
// The table options declare the key's type.
func TestNumberTableKeys(t *testing.T) {
	readings := `{"DataModel": [{"TableName": "readings",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "sensor", "AttributeType": "S"}, "SortKey": {"AttributeName": "at", "AttributeType": "N"}},
  "TableData": [
    {"sensor": {"S": "S#1"}, "at": {"N": "1.5"}, "celsius": {"N": "20"}},
    {"sensor": {"S": "S#1"}, "at": {"N": "2"}, "celsius": {"N": "21"}},
    {"sensor": {"S": "S#2"}, "at": {"N": "1.50"}, "celsius": {"N": "19"}}
  ]}]}`
	ownAttr := `{"DataModel": [{"TableName": "orders",
  "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "N"}, "SortKey": {"AttributeName": "sk", "AttributeType": "S"}},
  "TableData": [
    {"id": {"N": "42"}, "sk": {"S": "order"}, "orderNo": {"N": "42"}},
    {"id": {"N": "7"}, "sk": {"S": "order"}, "orderNo": {"N": "7"}}
  ]}]}`
	numkeys, err := os.ReadFile("testdata/variants/numkeys.json")
	require.NoError(t, err)
	for name, c := range map[string]struct {
		src     string
		want    map[string]map[string]string // table → entity → spelledAs
		fields  []string                     // in the generated code
		options []string                     // the table options, in the generated code
	}{
		"variants/numkeys.json": {
			src: string(numkeys),
			want: map[string]map[string]string{
				"orders": {"order": "{idKey} | order | idKey | LSI1: {idKey} st#{status}", "line": "{idKey} | line#{lineID} | idKey,lineID"},
				"docs":   {"docs": "DOC#{docsID} | {versionKey} | docsID,versionKey"},
			},
			fields:  []string{"IDKey int64 `dynamodbav:\"idKey\"` // kept only in the keys", "VersionKey int64 `dynamodbav:\"versionKey\"` // kept only in the keys"},
			options: []string{`o.PartitionKey, o.SortKey = "id", "sk"` + "\n\t\to.PartitionKeyType = types.ScalarAttributeTypeN", `o.PartitionKey, o.SortKey = "pk", "version"` + "\n\t\to.SortKeyType = types.ScalarAttributeTypeN"},
		},
		"a number sort key with a fraction": {
			src:     readings,
			want:    map[string]map[string]string{"readings": {"readings": "S#{sensorKey} | {atKey} | sensorKey,atKey"}},
			fields:  []string{"AtKey float64 `dynamodbav:\"atKey\"` // kept only in the keys"},
			options: []string{"o.SortKeyType = types.ScalarAttributeTypeN"},
		},
		"the item's own number attribute": {
			src:     ownAttr,
			want:    map[string]map[string]string{"orders": {"orders": "{orderNo} | order | "}},
			fields:  []string{"OrderNo int64 `dynamodbav:\"orderNo\"`"},
			options: []string{"o.PartitionKeyType = types.ScalarAttributeTypeN"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			g, err := build([]byte(c.src), "model", "t.json")
			require.NoError(t, err)
			got := map[string]map[string]string{}
			for _, tb := range g.m.tables {
				got[tb.name] = map[string]string{}
				for _, e := range tb.entities {
					got[tb.name][e.name] = spelledAs(e)
				}
			}
			assert.Equal(t, c.want, got)
			files, _, err := generate([]byte(c.src), "model", "t.json")
			require.NoError(t, err)
			code := strings.Join(strings.Fields(string(files[0].text)), " ") // gofmt aligns the fields
			for _, w := range slices.Concat(c.fields, c.options) {
				assert.Contains(t, code, strings.Join(strings.Fields(w), " "))
			}
		})
	}
}
