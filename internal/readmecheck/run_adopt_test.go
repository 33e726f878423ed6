package readmecheck

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// The tests of this file run the README's blocks of "Using adjlist on a
// table you already have": "Attributes your Go type does not declare".

// A metadata item another program wrote with a Level that PlayerMeta does
// not declare: Verify names it, printed as the README shows; Repair
// leaves it; Replace of the value Get reads drops it, Update keeps it;
// a map-typed entity holds it.
func TestReadmeUndeclaredAttributes(t *testing.T) { require.NoError(t, readmeUndeclaredAttributes(t)) }

// readmeUndeclaredAttributes is TestReadmeUndeclaredAttributes's body: its README blocks return their errors.
func readmeUndeclaredAttributes(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "gaming")
	table := adjlist.NewTable(l.client, "gaming", func(o *adjlist.Options) { o.NoIndex = true })
	l.create(t, table)
	client, ctx := l.client, t.Context()
	av, err := attributevalue.MarshalMap(map[string]any{"PK": "player001", "SK": "#METADATA#player001", "Currency": 150, "Level": 7})
	require.NoError(t, err)
	_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("gaming"), Item: av})
	require.NoError(t, err)
	meta := adjlist.NewEntity[PlayerMeta](table, "metadata", "{playerID}", "#METADATA#{playerID}")
	require.NoError(t, table.Check())
	name, ok := table.TypeOf(av)
	assert.True(t, ok, "TypeOf reads the keys alone")
	assert.Equal(t, "entity metadata", name)

	log := new(printer)
	// readme:begin
	res, err := adjlist.Verify(ctx, client, table)
	if err != nil {
		return err
	}
	for _, f := range res.Findings {
		log.Print(f) // undeclared attribute: "player001" "#METADATA#player001" (entity metadata): Level is N 7
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, []string{`undeclared attribute: "player001" "#METADATA#player001" (entity metadata): Level is N 7`}, log.Lines())
	require.Len(t, res.Findings, 1)
	assert.Equal(t, adjlist.FindingUndeclaredAttribute, res.Findings[0].Kind)
	assert.Equal(t, "Level", res.Findings[0].Attribute)

	rep, err := adjlist.Repair(ctx, client, table, res.Findings)
	require.NoError(t, err)
	assert.Equal(t, res.Findings, rep.Left, "Repair leaves it")
	assert.Equal(t, av, l.rawItem(t, "gaming", "player001", "#METADATA#player001"))

	// Update keeps it; Replace of the value Get read drops it.
	m, err := meta.Update(ctx, adjlist.IDs{"player001"}, adjlist.Update{}.Set("Currency", 100))
	require.NoError(t, err)
	assert.Contains(t, l.rawItem(t, "gaming", "player001", "#METADATA#player001"), "Level")
	require.NoError(t, meta.Replace(ctx, adjlist.IDs{"player001"}, m))
	assert.Equal(t, []string{"Currency", "PK", "SK"}, attrNames(l.rawItem(t, "gaming", "player001", "#METADATA#player001")))

	// A map type holds every attribute: nothing to report.
	_, err = client.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("gaming"), Item: av})
	require.NoError(t, err)
	other := adjlist.NewTable(l.client, "gaming", func(o *adjlist.Options) { o.NoIndex = true })
	all := adjlist.NewEntity[map[string]any](other, "metadata", "{playerID}", "#METADATA#{playerID}")
	require.NoError(t, other.Check())
	res, err = adjlist.Verify(ctx, client, other)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
	v, err := all.Get(ctx, adjlist.IDs{"player001"})
	require.NoError(t, err)
	require.NoError(t, all.Replace(ctx, adjlist.IDs{"player001"}, v))
	assert.Equal(t, av, l.rawItem(t, "gaming", "player001", "#METADATA#player001"), "Get + Replace: the same item")
	return nil
}
