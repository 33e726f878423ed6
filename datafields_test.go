package adjlist_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/internal/ddbjson"
)

// The complaint management design (aws-samples/aws-dynamodb-examples,
// schema_design/SchemaExamples/ComplainManagement): a complaint's
// metadata item stores its id both as its partition key and as the
// attribute complaint_id; a communication's sort key joins two of its
// attributes, comm_date and comm_id, and its partition key holds the
// complaint's id, which the item stores nowhere else.
type complaint struct {
	ComplaintID string `dynamodbav:"complaint_id"`
	CustomerID  string `dynamodbav:"customer_id,omitempty"`
	State       string `dynamodbav:"current_state"`
	Created     string `dynamodbav:"creation_time"`
	Severity    string `dynamodbav:"severity"`
	Description string `dynamodbav:"complaint_description"`
	EscalatedTo string `dynamodbav:"escalated_to,omitempty"`
	EscalatedAt string `dynamodbav:"escalation_time,omitempty"`
}

type communication struct {
	ComplaintID string   `dynamodbav:"complaint_id"` // only in the partition key (KeyOnly)
	CommID      string   `dynamodbav:"comm_id"`
	CommDate    string   `dynamodbav:"comm_date"`
	State       string   `dynamodbav:"complaint_state"`
	Text        string   `dynamodbav:"comm_text"`
	Attachments []string `dynamodbav:"attachments,stringset,omitempty"`
	AgentID     string   `dynamodbav:"agentID,omitempty"`
}

// complaintData is part of the design's TableData, as published.
const complaintData = `[
 {"PK":{"S":"Complaint123"},"SK":{"S":"comm#2023-04-30T12:00:24#comm1"},"comm_id":{"S":"comm1"},"comm_date":{"S":"2023-04-30T12:00:24"},"complaint_state":{"S":"investigating"},"comm_text":{"S":"<comm text>"},"agentID":{"S":"AgentA"}},
 {"PK":{"S":"Complaint123"},"SK":{"S":"comm#2023-04-30T12:35:54#comm2"},"comm_id":{"S":"comm2"},"comm_date":{"S":"2023-04-30T12:35:54"},"complaint_state":{"S":"resolved"},"comm_text":{"S":"<comm text>"},"attachments":{"SS":["s3://URL_for_attachment1","s3://URL_for_attachment2"]},"agentID":{"S":"AgentA"}},
 {"PK":{"S":"Complaint1444"},"SK":{"S":"comm#2022-12-31T19:32:00#comm4"},"comm_id":{"S":"comm4"},"comm_date":{"S":"2022-12-31T19:32:00"},"complaint_state":{"S":"waiting"},"comm_text":{"S":"<comm text>"}},
 {"PK":{"S":"Complaint123"},"SK":{"S":"metadata"},"customer_id":{"S":"custABC"},"complaint_id":{"S":"Complaint123"},"current_state":{"S":"resolved"},"creation_time":{"S":"2023-04-30T12:00:00"},"severity":{"S":"P2"},"complaint_description":{"S":"<description text>"}},
 {"PK":{"S":"Complaint1444"},"SK":{"S":"metadata"},"customer_id":{"S":"custXY32"},"complaint_id":{"S":"Complaint1444"},"current_state":{"S":"assigned"},"creation_time":{"S":"2022-12-31T19:39:57"},"severity":{"S":"P1"},"complaint_description":{"S":"<description text>"},"escalated_to":{"S":"AgentB"},"escalation_time":{"S":"2023-01-03T04:00:07"}}
]`

// designItems parses items in DynamoDB JSON.
func designItems(t *testing.T, s string) []adjlist.Item {
	t.Helper()
	var raw []map[string]events.DynamoDBAttributeValue
	require.NoError(t, json.Unmarshal([]byte(s), &raw))
	out := make([]adjlist.Item, len(raw))
	for i, r := range raw {
		item, err := ddbjson.MapToSDK(r)
		require.NoError(t, err)
		out[i] = item
	}
	return out
}

type complaintModel struct {
	db         *dynamodb.Client
	calls      *countingClient
	table      *adjlist.Table
	complaints *adjlist.Entity[complaint]
	comms      *adjlist.Entity[communication]
}

func newComplaintModel(t *testing.T) *complaintModel {
	t.Helper()
	db := ddbtest.Client(t)
	m := &complaintModel{db: db, calls: &countingClient{Client: db}}
	m.table = adjlist.NewTable(m.calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{
			{Name: "Customer_Complaint_GSI", PartitionAttributes: []adjlist.KeyAttribute{{Name: "customer_id"}}, SortAttributes: []adjlist.KeyAttribute{{Name: "complaint_id"}}},
			{Name: "Agents_Comments_GSI", PartitionAttributes: []adjlist.KeyAttribute{{Name: "agentID"}}, SortAttributes: []adjlist.KeyAttribute{{Name: "comm_date"}}},
		}
	})
	ddbtest.CreateTable(t, m.table)
	m.complaints = adjlist.NewEntity[complaint](m.table, "complaint", "{complaint_id}", "metadata")
	m.comms = adjlist.NewEntity[communication](m.table, "comm", "{complaint_id}", "comm#{comm_date}#{comm_id}",
		func(o *adjlist.EntityOptions) { o.KeyOnly = []string{"complaint_id"} })
	require.NoError(t, m.table.Check())
	return m
}

// rawItem reads an item as DynamoDB stores it.
func (m *complaintModel) rawItem(t *testing.T, pk, sk string) adjlist.Item {
	t.Helper()
	out, err := m.db.GetItem(context.Background(), &dynamodb.GetItemInput{TableName: aws.String(m.table.Name()), ConsistentRead: aws.Bool(true),
		Key: adjlist.Item{"PK": av(pk), "SK": av(sk)}})
	require.NoError(t, err)
	require.NotNil(t, out.Item, "%s %s", pk, sk)
	return out.Item
}

// TestDesignItemsByteForByte writes a published design's items with the
// entities alone, each from its data without ids, and reads them back as
// DynamoDB stores them: every attribute and key is the design's own.
func TestDesignItemsByteForByte(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newComplaintModel(t)
	for _, want := range designItems(t, complaintData) {
		name, ok := m.table.TypeOf(want)
		require.True(t, ok)
		switch name {
		case "entity complaint":
			v, ok, err := m.complaints.Decode(clone(want))
			require.True(t, ok)
			require.NoError(t, err)
			require.NoError(t, m.complaints.Put(ctx, nil, v.Data))
		case "entity comm":
			v, ok, err := m.comms.Decode(clone(want))
			require.True(t, ok)
			require.NoError(t, err)
			assert.Equal(t, v.IDs[0], v.Data.ComplaintID, "a value kept only in the key is read back from it")
			require.NoError(t, m.comms.Put(ctx, nil, v.Data))
		default:
			t.Fatalf("typed %q", name)
		}
		assert.Equal(t, want, m.rawItem(t, str(want["PK"]), str(want["SK"])))
	}

	// The design's read patterns, on the values alone.
	got, err := m.comms.List("Complaint123").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, communication{ComplaintID: "Complaint123", CommID: "comm1", CommDate: "2023-04-30T12:00:24",
		State: "investigating", Text: "<comm text>", AgentID: "AgentA"}, got[0].Data)
	c, err := m.complaints.Get(ctx, adjlist.IDs{"Complaint1444"})
	require.NoError(t, err)
	assert.Equal(t, "Complaint1444", c.ComplaintID)
	assert.Equal(t, "AgentB", c.EscalatedTo)
	var byAgent []adjlist.EntityItem[communication]
	require.Eventually(t, func() bool {
		byAgent, err = m.comms.ByIndex("Agents_Comments_GSI", "AgentA").Collect(ctx)
		require.NoError(t, err)
		return len(byAgent) == 2
	}, 5*time.Second, 20*time.Millisecond)
	assert.Equal(t, "Complaint123", byAgent[1].Data.ComplaintID)
	assert.Equal(t, "comm2", byAgent[1].Data.CommID)
}

// TestGetReplaceUnchangedIsIdentical: items another program wrote by the
// design (plain PutItem), read with Get and written back unchanged with
// Replace, are stored exactly as they were.
func TestGetReplaceUnchangedIsIdentical(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newComplaintModel(t)
	for _, want := range designItems(t, complaintData) {
		_, err := m.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(m.table.Name()), Item: want})
		require.NoError(t, err)
	}
	for _, want := range designItems(t, complaintData) {
		pk, sk := str(want["PK"]), str(want["SK"])
		if sk == "metadata" {
			v, err := m.complaints.Get(ctx, adjlist.IDs{pk})
			require.NoError(t, err)
			require.NoError(t, m.complaints.Replace(ctx, adjlist.IDs{pk}, v))
		} else {
			items, err := m.comms.List(pk).Collect(ctx)
			require.NoError(t, err)
			for _, it := range items {
				require.NoError(t, m.comms.Replace(ctx, it.IDs, it.Data))
			}
		}
		assert.Equal(t, want, m.rawItem(t, pk, sk), "%s %s", pk, sk)
	}
	res, err := adjlist.Verify(ctx, m.db, m.table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// TestKeyFieldsDisagree: a key field stored both as an attribute and in
// the keys must hold one value. A write whose ids and data differ is
// refused before any request; an item stored with two values is reported
// by Verify and left alone by Repair.
func TestKeyFieldsDisagree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m := newComplaintModel(t)
	c := complaint{ComplaintID: "Complaint1", CustomerID: "custA", State: "new", Severity: "P3"}
	before := m.calls.total()
	for name, err := range map[string]error{
		"ids differ from the data":  m.complaints.Put(ctx, adjlist.IDs{"Complaint2"}, c),
		"replace too":               m.complaints.Replace(ctx, adjlist.IDs{"Complaint2"}, c),
		"no ids, no data":           m.complaints.Put(ctx, nil, complaint{State: "new"}),
		"batch":                     errOf(m.complaints.PutMany(ctx, []adjlist.EntityItem[complaint]{{IDs: adjlist.IDs{"x"}, Data: c}})),
		"key-only value given none": m.comms.Put(ctx, nil, communication{CommID: "c1", CommDate: "2026"}),
	} {
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey, name)
	}
	var ke *adjlist.KeyError
	require.ErrorAs(t, m.complaints.Put(ctx, adjlist.IDs{"Complaint2"}, c), &ke)
	assert.Contains(t, ke.Reason, "complaint_id")
	_, err := m.complaints.Update(ctx, adjlist.IDs{"Complaint1"}, adjlist.Set("complaint_id", "Complaint9"))
	assert.ErrorIs(t, err, adjlist.ErrKeyAttribute, "an update may not change a value the keys hold")
	assert.Equal(t, before, m.calls.total(), "refused before any request")

	// Ids that agree, or an empty attribute that takes the id.
	require.NoError(t, m.complaints.Put(ctx, adjlist.IDs{"Complaint1"}, c))
	require.NoError(t, m.complaints.Put(ctx, adjlist.IDs{"Complaint3"}, complaint{State: "new"}))
	assert.Equal(t, "Complaint3", str(m.rawItem(t, "Complaint3", "metadata")["complaint_id"]))

	// Written by another program with two values.
	bad := adjlist.Item{"PK": av("Complaint4"), "SK": av("metadata"), "complaint_id": av("Complaint5"), "current_state": av("new")}
	_, err = m.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(m.table.Name()), Item: bad})
	require.NoError(t, err)
	res, err := adjlist.Verify(ctx, m.db, m.table)
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	f := res.Findings[0]
	assert.Equal(t, adjlist.FindingKeyMismatch, f.Kind)
	assert.Equal(t, adjlist.Key{PK: "Complaint4", SK: "metadata"}, f.Key)
	assert.Equal(t, "complaint_id", f.Attribute)
	assert.Equal(t, "Complaint5", f.Have)
	assert.Equal(t, "Complaint4", f.Want)
	_, err = adjlist.Repair(ctx, m.db, m.table, res.Findings)
	require.NoError(t, err)
	assert.Equal(t, bad, m.rawItem(t, "Complaint4", "metadata"), "Repair leaves it to the application")
}

// orderLine is an online shop's order item: its order and product ids are
// its table keys, and its date and customer live only in its index keys
// (GSI1: the product's orders by date; GSI2: the customer's by date).
type orderLine struct {
	OrderID    string  `dynamodbav:"orderId"`
	ProductID  string  `dynamodbav:"productId"`
	Date       string  `dynamodbav:"date"`
	CustomerID string  `dynamodbav:"customerId"`
	Quantity   int     `dynamodbav:"quantity"`
	Price      float64 `dynamodbav:"price"`
}

func newOrderLines(t *testing.T, calls adjlist.Client) (*adjlist.Table, *adjlist.Entity[orderLine]) {
	t.Helper()
	table := adjlist.NewTable(calls, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{
			{Name: "GSI1", PartitionKey: "GSI1-PK", SortKey: "GSI1-SK"},
			{Name: "GSI2", PartitionKey: "GSI2-PK", SortKey: "GSI2-SK"},
		}
	})
	ddbtest.CreateTable(t, table)
	lines := adjlist.NewEntity[orderLine](table, "orderItem", "o#{orderId}", "p#{productId}", func(o *adjlist.EntityOptions) {
		o.KeyOnly = []string{"orderId", "productId", "date", "customerId"}
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI1", PartitionKey: adjlist.Template("p#{productId}"), SortKey: adjlist.Template("{date}")},
			{Index: "GSI2", PartitionKey: adjlist.Template("c#{customerId}"), SortKey: adjlist.Template("{date}")},
		}
	})
	require.NoError(t, table.Check())
	return table, lines
}

// TestIndexOnlyValuesRoundTrip: values a design keeps only inside index
// keys are written into them, parsed back on every read, and an unchanged
// item read and written back is the item as it was.
func TestIndexOnlyValuesRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table, lines := newOrderLines(t, db)
	design := adjlist.Item{
		"PK": av("o#12345"), "SK": av("p#99887"),
		"quantity": &typesN{Value: "2"}, "price": &typesN{Value: "19.5"},
		"GSI1-PK": av("p#99887"), "GSI1-SK": av("2022-03-04 00:21:00"),
		"GSI2-PK": av("c#a%23b"), "GSI2-SK": av("2022-03-04 00:21:00"),
	}
	want := orderLine{OrderID: "12345", ProductID: "99887", Date: "2022-03-04 00:21:00", CustomerID: "a#b", Quantity: 2, Price: 19.5}
	rawGet := func(pk, sk string) adjlist.Item {
		out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true), Key: adjlist.Item{"PK": av(pk), "SK": av(sk)}})
		require.NoError(t, err)
		return out.Item
	}

	// Written by the entity from the value alone: the design's item.
	require.NoError(t, lines.Put(ctx, nil, want))
	assert.Equal(t, design, rawGet("o#12345", "p#99887"))
	got, err := lines.Get(ctx, adjlist.IDs{"12345", "99887"})
	require.NoError(t, err)
	assert.Equal(t, want, got)

	// Written by another program: Get + Replace changes nothing.
	other := clone(design)
	other["PK"], other["GSI2-PK"] = av("o#777"), av("c#c9")
	_, err = db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(table.Name()), Item: other})
	require.NoError(t, err)
	v, err := lines.Get(ctx, adjlist.IDs{"777", "99887"})
	require.NoError(t, err)
	assert.Equal(t, "c9", v.CustomerID)
	require.NoError(t, lines.Replace(ctx, adjlist.IDs{"777", "99887"}, v))
	assert.Equal(t, other, rawGet("o#777", "p#99887"))

	// Every read fills them in: queries, index reads, batches, transactions.
	var byCustomer []adjlist.EntityItem[orderLine]
	require.Eventually(t, func() bool {
		byCustomer, err = lines.ByIndex("GSI2", "a#b").GreaterThan("2022").Collect(ctx)
		require.NoError(t, err)
		return len(byCustomer) == 1
	}, 5*time.Second, 20*time.Millisecond)
	assert.Equal(t, want, byCustomer[0].Data)
	listed, err := lines.List("777").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, listed, 1)
	assert.Equal(t, v, listed[0].Data)
	many, err := lines.GetMany(ctx, []adjlist.IDs{{"12345", "99887"}})
	require.NoError(t, err)
	require.Len(t, many, 1)
	assert.Equal(t, want, many[0].Data)
	rt := adjlist.NewReadTx(table)
	r := lines.TxGet(rt, adjlist.IDs{"12345", "99887"})
	require.NoError(t, rt.Run(ctx))
	assert.Equal(t, want, r.Data)
	updated, err := lines.Update(ctx, adjlist.IDs{"12345", "99887"}, adjlist.Set("quantity", 3))
	require.NoError(t, err)
	want.Quantity = 3
	assert.Equal(t, want, updated)
	_, err = lines.Update(ctx, adjlist.IDs{"12345", "99887"}, adjlist.Set("date", "2026"))
	assert.ErrorIs(t, err, adjlist.ErrKeyAttribute, "a value only the keys hold is changed by writing the item anew")

	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}

// TestKeyOnlyDeclarations: KeyOnly names attributes T declares and some
// key holds, in a key that parses back.
func TestKeyOnlyDeclarations(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(&countingClient{}, "t", func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1", PartitionKey: "GSI1PK", SortKey: "GSI1SK"}}
	})
	for name, c := range map[string]struct {
		keyOnly []string
		sk      string
	}{
		"not an attribute of T":  {[]string{"nope"}, "{date}"},
		"in no key":              {[]string{"customerId"}, "{date}"},
		"cannot parse back":      {[]string{"date"}, "{date}Z"},
		"given twice":            {[]string{"date", "date"}, "{date}"},
		"not a string or number": {[]string{"tags"}, "{date}"},
	} {
		t.Run(name, func(t *testing.T) {
			type v struct {
				Date       string   `dynamodbav:"date"`
				CustomerID string   `dynamodbav:"customerId"`
				Tags       []string `dynamodbav:"tags"`
			}
			e := adjlist.NewEntity[v](table, fmt.Sprintf("x%d", len(c.keyOnly)*100+len(c.sk)*10+len(name)), "X#{id}", "x", func(o *adjlist.EntityOptions) {
				o.KeyOnly = c.keyOnly
				o.Indexes = []adjlist.IndexKeys{{Index: "GSI1", PartitionKey: adjlist.Template("X"), SortKey: adjlist.Template(c.sk)}}
			})
			_, _, err := e.Key("1")
			assert.ErrorIs(t, err, adjlist.ErrInvalidOption)
		})
	}
}

// av is a string attribute.
func av(s string) types.AttributeValue { return &types.AttributeValueMemberS{Value: s} }

// str is a string attribute's value.
func str(v types.AttributeValue) string {
	s, _ := v.(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

// clone copies an item's top level, so that a Decode that fills it in
// leaves the original as it was.
func clone(item adjlist.Item) adjlist.Item { return maps.Clone(item) }

// errOf is the error of a call that returns a value too.
func errOf[V any](_ V, err error) error { return err }

type typesN = types.AttributeValueMemberN

// TestKeyFieldsWithTableTagKey: a table whose encoder reads json tags links
// key fields by their json names.
func TestKeyFieldsWithTableTagKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.EncoderOptions = func(eo *attributevalue.EncoderOptions) { eo.TagKey = "json" }
		o.DecoderOptions = func(do *attributevalue.DecoderOptions) { do.TagKey = "json" }
	})
	ddbtest.CreateTable(t, table)
	type device struct {
		DeviceID string `json:"deviceId"`
		Model    string `json:"model"`
	}
	devices := adjlist.NewEntity[device](table, "device", "d#{deviceId}", "meta")
	require.NoError(t, table.Check())
	require.NoError(t, devices.Put(ctx, nil, device{DeviceID: "d1", Model: "x"}))
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), Key: adjlist.Item{"PK": av("d#d1"), "SK": av("meta")}})
	require.NoError(t, err)
	assert.Equal(t, adjlist.Item{"PK": av("d#d1"), "SK": av("meta"), "deviceId": av("d1"), "model": av("x")}, out.Item)
	assert.ErrorIs(t, devices.Put(ctx, adjlist.IDs{"d2"}, device{DeviceID: "d1"}), adjlist.ErrInvalidKey)
}

// TestNumberKeyFieldTakesDecimalIDs: a key field the Go type holds as a
// number takes only ids DynamoDB stores as numbers, refused before any
// request otherwise.
func TestNumberKeyFieldTakesDecimalIDs(t *testing.T) {
	t.Parallel()
	calls := &countingClient{}
	table := adjlist.NewTable(calls, "t", func(o *adjlist.Options) { o.NoIndex = true })
	type score struct {
		Round int `dynamodbav:"round"`
	}
	scores := adjlist.NewEntity[score](table, "score", "r#{round}", "s")
	require.NoError(t, table.Check())
	for _, id := range []string{"NaN", "Inf", "0x10", "1_000", "abc"} {
		assert.ErrorIs(t, scores.Put(context.Background(), adjlist.IDs{id}, score{}), adjlist.ErrInvalidKey, id)
	}
	assert.Zero(t, calls.total())
}

// TestVerifyReportsKeyOnlyAttributesHeld: an item that holds, as an
// attribute of its own, a value the entity keeps only inside keys loses it
// on a Replace of the value Get read, so Verify reports it as an attribute
// the type cannot hold; the design's own items are clean.
func TestVerifyReportsKeyOnlyAttributesHeld(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table, lines := newOrderLines(t, db)
	want := orderLine{OrderID: "12345", ProductID: "99887", Date: "2022-03-04 00:21:00", CustomerID: "c9", Quantity: 2}
	require.NoError(t, lines.Put(ctx, nil, want))
	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	require.Empty(t, res.Findings, "the design's items hold no key-only value as an attribute")

	key := adjlist.Item{"PK": av("o#12345"), "SK": av("p#99887")}
	_, err = db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table.Name()), Key: key,
		UpdateExpression:          aws.String("SET #d = :d"),
		ExpressionAttributeNames:  map[string]string{"#d": "date"},
		ExpressionAttributeValues: map[string]types.AttributeValue{":d": av("2022-03-04 00:21:00")}})
	require.NoError(t, err)
	res, err = adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	require.Len(t, res.Findings, 1)
	f := res.Findings[0]
	assert.Equal(t, adjlist.FindingUndeclaredAttribute, f.Kind)
	assert.Equal(t, "entity orderItem", f.Type)
	assert.Equal(t, adjlist.Key{PK: "o#12345", SK: "p#99887"}, f.Key)
	assert.Equal(t, "date", f.Attribute)

	// The loss Verify reports: a Replace of the value Get read drops it.
	got, err := lines.Get(ctx, adjlist.IDs{"12345", "99887"})
	require.NoError(t, err)
	require.NoError(t, lines.Replace(ctx, nil, got))
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), Key: key, ConsistentRead: aws.Bool(true)})
	require.NoError(t, err)
	assert.NotContains(t, out.Item, "date")
}

// TestNoIndexInvertedNamesAreData: with NoIndex the table has no inverted
// index, so attributes named as its keys would be (GSI1PK, GSI1SK) are
// data: a model keying its own index on such plain values writes, reads
// (into a struct and into a map) and verifies them as any other
// attribute. A table with the inverted index still refuses them.
func TestNoIndexInvertedNamesAreData(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	type user struct {
		Name string `dynamodbav:"GSI1PK"`
		City string `dynamodbav:"GSI1SK"`
	}
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) {
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{Name: "GSI1",
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "GSI1PK"}}, SortAttributes: []adjlist.KeyAttribute{{Name: "GSI1SK"}}}}
	})
	users := adjlist.NewEntity[user](table, "user", "u#{id}", "info")
	raw := adjlist.NewEntity[map[string]any](table, "raw", "r#{id}", "info")
	require.NoError(t, table.Check())
	ddbtest.CreateTable(t, table)

	require.NoError(t, users.Put(ctx, adjlist.IDs{"1"}, user{Name: "Ada", City: "Paris"}))
	got, err := users.Get(ctx, adjlist.IDs{"1"}, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, user{Name: "Ada", City: "Paris"}, got)
	require.NoError(t, users.Replace(ctx, adjlist.IDs{"1"}, got))
	out, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String(table.Name()), ConsistentRead: aws.Bool(true),
		Key: adjlist.Item{"PK": av("u#1"), "SK": av("info")}})
	require.NoError(t, err)
	assert.Equal(t, adjlist.Item{"PK": av("u#1"), "SK": av("info"), "GSI1PK": av("Ada"), "GSI1SK": av("Paris")}, out.Item)

	require.NoError(t, raw.Put(ctx, adjlist.IDs{"2"}, map[string]any{"GSI1PK": "Bob"}))
	m, err := raw.Get(ctx, adjlist.IDs{"2"}, adjlist.Consistent)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"GSI1PK": "Bob"}, m, "a map holds GSI1PK as data")

	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)

	inverted := adjlist.NewTable(db, table.Name())
	withIndex := adjlist.NewEntity[user](inverted, "user", "u#{id}", "info")
	require.ErrorIs(t, withIndex.Put(ctx, adjlist.IDs{"1"}, user{Name: "Ada"}), adjlist.ErrKeyAttribute)
}
