package readmecheck

import (
	"path/filepath"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal"
)

// The tests of this file run the README's blocks that build clients and
// the model of a service's tests ("Against real DynamoDB", "Testing your
// service"); harness_test.go is the test that uses NewModel.

// readme:begin
func NewModel(db adjlist.Client, tableName string) *Model {
	table := adjlist.NewTable(db, tableName)
	users := adjlist.NewNode[User](table, "USER", "PROFILE")
	teams := adjlist.NewNode[Team](table, "TEAM", "META")
	return &Model{Table: table, Users: users, Teams: teams,
		Members: adjlist.NewEdge[Membership](users, "MEMBER", teams)}
}

// readme:end

// awsConfigOf makes the AWS configuration of this machine what it sets,
// for the test: no shared config or credentials file, region eu-west-1.
// Not with t.Parallel.
func awsConfigOf(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_REGION", "eu-west-1")
}

// Against real DynamoDB: the client is built as usual and handed over;
// NewTable itself loads nothing.
func TestReadmeRealDynamoDB(t *testing.T) {
	awsConfigOf(t)
	ctx := t.Context()
	// readme:begin
	cfg, err := config.LoadDefaultConfig(ctx)
	table := adjlist.NewTable(dynamodb.NewFromConfig(cfg), "school")
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, "eu-west-1", cfg.Region)
	assert.Equal(t, "school", table.Name())
	require.NoError(t, table.Check())
}

// assertLocalClient checks the settings the README's table under "A
// client for DynamoDB Local without SDK warnings" lists.
func assertLocalClient(t *testing.T, c *dynamodb.Client) {
	t.Helper()
	o := c.Options()
	assert.Equal(t, "http://127.0.0.1:8000", aws.ToString(o.BaseEndpoint))
	assert.Equal(t, "us-east-1", o.Region)
	creds, err := o.Credentials.Retrieve(t.Context())
	require.NoError(t, err)
	assert.Equal(t, []string{"local", "local"}, []string{creds.AccessKeyID, creds.SecretAccessKey})
	assert.True(t, o.DisableValidateResponseChecksum)
}

// Both ways ddblocal makes a client: from nothing (no AWS configuration
// read: this machine's region is not its), and as options on your usual
// client, with exactly the settings the README's table lists.
func TestReadmeLocalClients(t *testing.T) {
	awsConfigOf(t)
	ctx := t.Context()
	// readme:begin
	// A client from nothing: reads no AWS config file or environment variable.
	db := ddblocal.NewClient("http://127.0.0.1:8000")

	// Or your usual client, pointed at DynamoDB Local.
	cfg, err := config.LoadDefaultConfig(ctx)
	// handle err
	usual := dynamodb.NewFromConfig(cfg, ddblocal.ClientOptions("http://127.0.0.1:8000"))
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, "eu-west-1", cfg.Region, "the usual configuration")
	for _, c := range []*dynamodb.Client{db, usual} {
		assertLocalClient(t, c)
		o := c.Options()
		assert.Equal(t, aws.FIPSEndpointStateDisabled, o.EndpointOptions.UseFIPSEndpoint)
		assert.Equal(t, aws.DualStackEndpointStateDisabled, o.EndpointOptions.UseDualStackEndpoint)
	}
}

// The same client in plain SDK code.
func TestReadmePlainSDKClient(t *testing.T) {
	t.Parallel()
	cfg := aws.Config{Region: "eu-west-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDREAL", "real", "")}
	// readme:begin
	db := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		o.BaseEndpoint = aws.String("http://127.0.0.1:8000")
		o.Region = "us-east-1"
		o.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
		o.DisableValidateResponseChecksum = true // aws/aws-sdk-go-v2#3545
	})
	// readme:end
	assertLocalClient(t, db)
}
