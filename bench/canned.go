package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// Canned is an http.RoundTripper that answers every DynamoDB operation with
// a fixed, valid response body (by X-Amz-Target), with the X-Amz-Crc32
// header DynamoDB sends (CRC-32 IEEE of the body, in decimal) so that the
// SDK validates it as it would a real response. Nothing leaves the process.
// The request body is read to the end, as a real transport would send it.
type Canned struct {
	responses map[string]cannedResponse

	// Record, if set, receives each request's target and body.
	Record func(target string, body []byte)
}

type cannedResponse struct {
	body []byte
	crc  string
}

// Targets are the X-Amz-Target values of the operations answered.
const (
	TargetPutItem        = "DynamoDB_20120810.PutItem"
	TargetGetItem        = "DynamoDB_20120810.GetItem"
	TargetQuery          = "DynamoDB_20120810.Query"
	TargetBatchWriteItem = "DynamoDB_20120810.BatchWriteItem"
)

// NewCanned returns a transport answering each target with its body.
func NewCanned(bodies map[string][]byte) *Canned {
	c := &Canned{responses: make(map[string]cannedResponse, len(bodies))}
	for target, body := range bodies {
		c.responses[target] = cannedResponse{body: body, crc: strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10)}
	}
	return c
}

var recordMu sync.Mutex

// RoundTrip implements http.RoundTripper.
func (c *Canned) RoundTrip(req *http.Request) (*http.Response, error) {
	target := req.Header.Get("X-Amz-Target")
	if req.Body != nil {
		if c.Record != nil {
			b, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			recordMu.Lock()
			c.Record(target, b)
			recordMu.Unlock()
		} else if _, err := io.Copy(io.Discard, req.Body); err != nil {
			return nil, err
		}
		req.Body.Close()
	}
	r, ok := c.responses[target]
	if !ok {
		return nil, fmt.Errorf("canned: no response for %q", target)
	}
	return &http.Response{
		Status:     "200 OK",
		StatusCode: http.StatusOK,
		Proto:      "HTTP/1.1",
		ProtoMajor: 1,
		ProtoMinor: 1,
		Header: http.Header{
			"Content-Type":     {"application/x-amz-json-1.0"},
			"Content-Length":   {strconv.Itoa(len(r.body))},
			"X-Amz-Crc32":      {r.crc},
			"X-Amzn-Requestid": {"CANNEDREQUESTID0000000000000000000000000000000000000"},
		},
		ContentLength: int64(len(r.body)),
		Body:          io.NopCloser(bytes.NewReader(r.body)),
		Request:       req,
	}, nil
}

// NewCannedClient returns an SDK client whose every request is answered by
// c. The endpoint is never dialled. All three implementations share one
// such client per benchmark, so the SDK's own cost is identical for them.
func NewCannedClient(c *Canned, optFns ...func(*dynamodb.Options)) *dynamodb.Client {
	return dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("BENCH", "BENCH", ""),
		BaseEndpoint: aws.String("http://dynamodb.canned.invalid"),
		HTTPClient:   &http.Client{Transport: c},
	}, optFns...)
}

// Fixture items, as DynamoDB's JSON protocol spells them.

type av map[string]string // {"S": "..."} or {"N": "..."}

func s(v string) av { return av{"S": v} }
func n(v int) av    { return av{"N": strconv.Itoa(v)} }

// FixtureEnrollment is the data of every fixture edge.
var FixtureEnrollment = Enrollment{EnrolledOn: "2026-09-01", Grade: "B"}

// CourseID is the id of the i-th fixture course; StudentID of the i-th
// fixture student.
func CourseID(i int) string  { return fmt.Sprintf("c%04d", i) }
func StudentID(i int) string { return fmt.Sprintf("s%05d", i) }

func edgeJSON(from, to string) map[string]av {
	return map[string]av{
		"PK": s(stuPrefix + from), "SK": s(enrollPrefix + to),
		"GSI1PK": s(crsPrefix + to), "GSI1SK": s(stuPrefix + from),
		"enrolledOn": s(FixtureEnrollment.EnrolledOn), "grade": s(FixtureEnrollment.Grade),
	}
}

// FixtureStudent is the profile of the fixture student "a91".
var FixtureStudent = Student{Name: "Ada Lovelace", Year: 2, Major: "Mathematics"}

// FixtureWorkspace is the fixture workspace "acme"; FixtureProject the
// data of each of its projects.
var (
	FixtureWorkspace = Workspace{DisplayName: "Acme Corp", Region: "eu-west-1", SeatLimit: 250}
	FixtureProject   = Project{Title: "Launch", Status: "active", CreatedBy: "u-1029"}
)

// ProjectID is the id of the i-th fixture project.
func ProjectID(i int) string { return fmt.Sprintf("2026-%04d", i) }

func queryBody(items []map[string]av) []byte {
	b, err := json.Marshal(map[string]any{"Count": len(items), "ScannedCount": len(items), "Items": items})
	if err != nil {
		panic(err)
	}
	return b
}

// ForwardBody is the Query response listing k edges of student "a91"
// (courses c0000...).
func ForwardBody(k int) []byte {
	items := make([]map[string]av, k)
	for i := range items {
		items[i] = edgeJSON("a91", CourseID(i))
	}
	return queryBody(items)
}

// ReverseBody is the GSI1 Query response listing k edges into course
// "math204" (students s00000...).
func ReverseBody(k int) []byte {
	items := make([]map[string]av, k)
	for i := range items {
		items[i] = edgeJSON(StudentID(i), "math204")
	}
	return queryBody(items)
}

// StudentPartitionBody is the Query response for PK = STU#a91: k edges,
// then the profile (ENROLL#... sorts before PROFILE).
func StudentPartitionBody(k int) []byte {
	items := make([]map[string]av, 0, k+1)
	for i := 0; i < k; i++ {
		items = append(items, edgeJSON("a91", CourseID(i)))
	}
	items = append(items, map[string]av{
		"PK": s(stuPrefix + "a91"), "SK": s(profileSK),
		"name": s(FixtureStudent.Name), "year": n(FixtureStudent.Year), "major": s(FixtureStudent.Major),
	})
	return queryBody(items)
}

// WorkspacePartitionBody is the Query response for PK = WS#acme: the
// parent (META sorts before PROJ#) and k projects.
func WorkspacePartitionBody(k int) []byte {
	items := make([]map[string]av, 0, k+1)
	items = append(items, map[string]av{
		"PK": s(wsPrefix + "acme"), "SK": s(wsMarker),
		"displayName": s(FixtureWorkspace.DisplayName), "region": s(FixtureWorkspace.Region), "seatLimit": n(FixtureWorkspace.SeatLimit),
	})
	for i := 0; i < k; i++ {
		items = append(items, map[string]av{
			"PK": s(wsPrefix + "acme"), "SK": s(projPrefix + ProjectID(i)),
			"title": s(FixtureProject.Title), "status": s(FixtureProject.Status), "createdBy": s(FixtureProject.CreatedBy),
		})
	}
	return queryBody(items)
}

// ProjectsBody is the Query response for PK = WS#acme AND SK BETWEEN two
// project ids: k projects, no parent.
func ProjectsBody(k int) []byte {
	items := make([]map[string]av, 0, k)
	for i := 0; i < k; i++ {
		items = append(items, map[string]av{
			"PK": s(wsPrefix + "acme"), "SK": s(projPrefix + ProjectID(i)),
			"title": s(FixtureProject.Title), "status": s(FixtureProject.Status), "createdBy": s(FixtureProject.CreatedBy),
		})
	}
	return queryBody(items)
}

// GetEdgeBody is the GetItem response for the edge a91 → math204.
func GetEdgeBody() []byte {
	b, err := json.Marshal(map[string]any{"Item": edgeJSON("a91", "math204")})
	if err != nil {
		panic(err)
	}
	return b
}

// EmptyBody is the response of a successful PutItem that asked for no
// return values.
func EmptyBody() []byte { return []byte("{}") }
