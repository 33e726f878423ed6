package ddbtest_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbtest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

var validTableName = regexp.MustCompile(`^[A-Za-z0-9_.-]{3,255}$`)

func TestTableName(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range []string{"plain", "with space/and:colons", "ünïcödé", strings.Repeat("x", 300)} {
		t.Run(name, func(t *testing.T) {
			for range 3 {
				got := ddbtest.TableName(t)
				assert.Regexp(t, validTableName, got)
				assert.False(t, seen[got], "duplicate name %q", got)
				seen[got] = true
			}
		})
	}
}

func TestClientCreateTable(t *testing.T) {
	client := ddbtest.Client(t)
	table := ddbtest.TableName(t)

	_, err := client.CreateTable(t.Context(), &dynamodb.CreateTableInput{
		TableName:            aws.String(table),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("PK"), AttributeType: types.ScalarAttributeTypeS}},
		KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("PK"), KeyType: types.KeyTypeHash}},
	})
	require.NoError(t, err)

	out, err := client.ListTables(t.Context(), &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	assert.Contains(t, out.TableNames, table)
}
