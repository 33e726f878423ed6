// Command workspaces is the one-to-many workspaces design: a SaaS
// workspace owns many projects. The workspace item and its projects share
// one partition key, so one Query reads them all; the sort key tells them
// apart, and zero-padded, time-ordered project ids list newest-first. The
// table uses the design's generic key names, EntityRef and Detail, and one
// global secondary index, ByStatus, that "re-partitions projects on a
// different attribute" (the design's words): keyed natively on each project's
// own status (partition) and Detail (sort), it lists every project of a
// status across workspaces, newest first. Workspace items have no status,
// so they are not in it (a sparse index), and declaring it adds no
// attribute to any item.
//
//	EntityRef   Detail           attributes
//	WS#acme     META             displayName, region, seatLimit
//	WS#acme     PROJ#2026-0007   title, status, createdBy
//	WS#acme     PROJ#2026-0042   title, status, createdBy
//	WS#acme     PROJ#2026-0118   title, status, createdBy
//	WS#globex   META             displayName, region, seatLimit
//	WS#globex   PROJ#2026-0009   title, status, createdBy
//
// The access patterns are one request (per page) each: a workspace's
// settings (GetItem), its projects newest-first (Query,
// ScanIndexForward=false), one project (GetItem), and every ACTIVE project
// across workspaces, newest first (Query on ByStatus). Changing a project's
// status with Update moves it in ByStatus: DynamoDB keeps the index in step
// with the item.
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/workspaces [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]
//
// -describe prints the model (adjlist.Describe) and its Mermaid diagram
// without touching DynamoDB; -workbench and -cloudformation write it as a
// NoSQL Workbench data model and a CloudFormation template.
//
// -verify, after the run, checks every item of the table against the model
// (adjlist.Verify), prints the items scanned and each finding, and exits
// with status 1 if there is any; with -cleanup, the table is deleted after
// the check. -cleanup, -aws and -verify beside -describe are usage errors
// (status 2; `go run` then exits 1).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// Workspace is the parent item's data: EntityRef=WS#<id>, Detail=META.
type Workspace struct {
	DisplayName string `dynamodbav:"displayName"`
	Region      string `dynamodbav:"region"`
	SeatLimit   int    `dynamodbav:"seatLimit"`
}

// Project is a child item's data: EntityRef=WS#<workspace>,
// Detail=PROJ#<year>-<seq>.
type Project struct {
	Title     string `dynamodbav:"title"`
	Status    string `dynamodbav:"status"`
	CreatedBy string `dynamodbav:"createdBy"`
}

var example = exampleutil.Example{Name: "workspaces", Model: described, Run: run}

func main() { exampleutil.Main(example) }

// model is the single-table design: a table keyed EntityRef/Detail, the
// workspace node and its project children. Declaring it makes no request.
type model struct {
	table      *adjlist.Table
	workspaces *adjlist.Node[Workspace]
	projects   *adjlist.Collection[Project, Workspace]
}

func newModel(db adjlist.Client, tableName string) model {
	// Item collections and no reverse reads, so no inverted index; one
	// index on the projects' own status and sort key instead.
	table := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {
		o.PartitionKey = "EntityRef"
		o.SortKey = "Detail"
		o.NoIndex = true
		o.Indexes = []adjlist.Index{{
			Name:                statusIndex,
			PartitionAttributes: []adjlist.KeyAttribute{{Name: "status"}},
			SortAttributes:      []adjlist.KeyAttribute{{Name: "Detail"}},
		}}
	})
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	return model{table, workspaces, projects}
}

// described is the model -describe and the exports render (see
// exampleutil.Example.Model).
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newModel(db, tableName)
	return m.table, []adjlist.Describer{m.workspaces, m.projects,
		adjlist.AccessPattern("a workspace's active projects since an id, title and status only", activeSince(m.projects, "<id>", "<since>")),
		adjlist.AccessPattern("every ACTIVE project across workspaces, newest first", m.projects.ByIndex(statusIndex, "ACTIVE").Desc())}
}

// statusIndex lists projects by status across workspaces:
//
//	status = "ACTIVE"   Detail (sort, descending)   EntityRef
//	                    PROJ#2026-0042              WS#acme
//	                    PROJ#2026-0009              WS#globex
const statusIndex = "ByStatus"

// activeSince is a workspace's projects created since id since (ids are
// time-ordered), active ones only, with only their title and status: one
// Query per page,
//
//	EntityRef = "WS#acme" AND Detail BETWEEN "PROJ#2026-0042" AND "PROJ$"
//	filter status = "ACTIVE"
//	projection EntityRef, Detail, title, status
//
// The filter runs after the read: inactive projects are still read and
// billed, and Limit counts them.
func activeSince(projects *adjlist.Collection[Project, Workspace], workspace, since string) adjlist.Query[adjlist.Child[Project]] {
	return projects.List(workspace).
		GreaterThanEqual(since).
		Filter(expression.Name("status").Equal(expression.Value("ACTIVE"))).
		Project("title", "status")
}

// run writes the workspaces and projects to table and shows each
// access pattern. It can run again on the same table: workspaces are
// written with Replace, and a project already there (Put is a guarded
// create) is reported and left as it is.
func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newModel(db, tableName)
	workspaces, projects := m.workspaces, m.projects
	if err := adjlist.CreateTable(ctx, db, m.table, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }); err != nil {
		return err
	}

	// Parents: each workspace's settings, at Detail = "META".
	for id, ws := range map[string]Workspace{
		"acme":   {DisplayName: "Acme Corp", Region: "eu-west-1", SeatLimit: 50},
		"globex": {DisplayName: "Globex", Region: "us-east-1", SeatLimit: 10},
	} {
		if err := workspaces.Replace(ctx, id, ws); err != nil {
			return err
		}
	}

	// Children: each project in its workspace's partition, with a
	// zero-padded, time-ordered id ("2026-0007") so that the sort key
	// order is the creation order. A project is created once: Put refuses
	// to overwrite one.
	for _, p := range []struct {
		workspace string
		seq       uint64
		project   Project
	}{
		{"acme", 7, Project{Title: "Billing revamp", Status: "DONE", CreatedBy: "ana"}},
		{"globex", 9, Project{Title: "Data lake", Status: "ACTIVE", CreatedBy: "hank"}},
		{"acme", 42, Project{Title: "Mobile app", Status: "ACTIVE", CreatedBy: "ben"}},
		{"acme", 118, Project{Title: "SSO rollout", Status: "PLANNED", CreatedBy: "ana"}},
	} {
		id := fmt.Sprintf("2026-%04d", p.seq)
		err := projects.Put(ctx, p.workspace, id, p.project)
		if errors.Is(err, adjlist.ErrExists) {
			fmt.Fprintf(w, "project %s in %s already exists (left as is)\n", id, p.workspace)
		} else if err != nil {
			return err
		}
	}

	// Access pattern 1, workspace settings:
	// GetItem(EntityRef = "WS#acme", Detail = "META").
	acme, err := workspaces.Get(ctx, "acme")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nworkspace acme: %s, %s, %d seats\n", acme.DisplayName, acme.Region, acme.SeatLimit)

	// Access pattern 2, projects newest-first: one Query,
	// EntityRef = "WS#acme" AND begins_with(Detail, "PROJ#"),
	// ScanIndexForward = false.
	fmt.Fprintln(w, "\nacme projects, newest first:")
	for p, err := range projects.List("acme").Desc().All(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s  %-14s %-8s by %s\n", p.ID, p.Data.Title, p.Data.Status, p.Data.CreatedBy)
	}

	// Access pattern 3, one project:
	// GetItem(EntityRef = "WS#acme", Detail = "PROJ#2026-0042").
	p42, err := projects.Get(ctx, "acme", "2026-0042")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nproject acme/2026-0042: %s (%s)\n", p42.Title, p42.Status)

	// Projects created since 2026-0042, active ones only, title and status
	// only (CreatedBy is not read back, so it prints empty).
	fmt.Fprintln(w, "\nacme projects since 2026-0042, active only, title and status:")
	for p, err := range activeSince(projects, "acme", "2026-0042").All(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s  %-14s %-8s by %q\n", p.ID, p.Data.Title, p.Data.Status, p.Data.CreatedBy)
	}

	// Every ACTIVE project across workspaces, newest first: one Query on
	// the ByStatus index, status = "ACTIVE", ScanIndexForward = false.
	if err := printActive(ctx, w, projects); err != nil {
		return err
	}
	// SSO rollout goes live: Update sets its status, and DynamoDB moves
	// the item from the PLANNED partition of ByStatus to the ACTIVE one.
	// Then it is planned again, so that a second run starts as the first.
	for _, status := range []string{"ACTIVE", "PLANNED"} {
		p, err := projects.Update(ctx, "acme", "2026-0118", adjlist.Set("status", status))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "\nproject acme/2026-0118 is now %s\n", p.Status)
		if err := printActive(ctx, w, projects); err != nil {
			return err
		}
	}

	// The count of a workspace's projects, without decoding them: the same
	// Query, projecting only the keys.
	n, err := projects.List("acme").Count(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nacme has %d projects\n", n)

	// The whole item collection, parent and children, in one Query:
	// EntityRef = "WS#globex".
	globex, err := projects.Load(ctx, "globex")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nworkspace %s (%s, %d seats) in one Query:\n", globex.ID, globex.Parent.DisplayName, globex.Parent.SeatLimit)
	for _, c := range globex.Children {
		fmt.Fprintf(w, "  %s  %s\n", c.ID, c.Data.Title)
	}

	// The table as DynamoDB holds it: one partition per workspace, its
	// META item first, then its projects in sort key order.
	fmt.Fprintf(w, "\ntable %s:\n", tableName)
	if err := exampleutil.PrintTable(ctx, db, tableName, w, []string{"EntityRef", "Detail"}, nil); err != nil {
		return err
	}
	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}

// printActive lists every ACTIVE project across workspaces, newest first.
// The index is eventually consistent: on DynamoDB an Update may take a
// moment to show in it (DynamoDB Local shows it at once).
func printActive(ctx context.Context, w io.Writer, projects *adjlist.Collection[Project, Workspace]) error {
	fmt.Fprintln(w, "\nACTIVE projects across workspaces (ByStatus), newest first:")
	for p, err := range projects.ByIndex(statusIndex, "ACTIVE").Desc().All(ctx) {
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s/%s  %s\n", p.Parent, p.ID, p.Data.Title)
	}
	return nil
}
