package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/rest"
)

// sasCommand prints a service SAS URL for one table, signed with the
// well-known key, for demos: `tableplay sas --table t --permissions raud`.
func sasCommand(args []string, stdout, stderr io.Writer, now time.Time) error {
	fs := flag.NewFlagSet("sas", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:10002", "the server's address")
	table := fs.String("table", "", "the table the SAS is for (required)")
	perms := fs.String("permissions", "r", "letters from raud: query, add, update, delete")
	expiry := fs.Duration("expiry", time.Hour, "how long the SAS is valid")
	spk := fs.String("start-pk", "", "first PartitionKey of the key range")
	srk := fs.String("start-rk", "", "first RowKey (with --start-pk)")
	epk := fs.String("end-pk", "", "last PartitionKey of the key range")
	erk := fs.String("end-rk", "", "last RowKey (with --end-pk)")
	policy := fs.String("policy", "", "a stored access policy (si) of the table's ACL")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *table == "" {
		return errors.New("sas: --table is required")
	}
	if strings.Trim(*perms, "raud") != "" {
		return fmt.Errorf("sas: permissions %q: use the letters r, a, u, d", *perms)
	}
	s := rest.SAS{Version: "2019-02-02", Table: *table, StartPK: *spk, StartRK: *srk, EndPK: *epk, EndRK: *erk,
		Identifier: *policy, Protocol: "https,http"}
	if *policy == "" {
		s.Permissions = *perms
		s.Start = now.Add(-time.Minute).UTC().Format("2006-01-02T15:04:05Z")
		s.Expiry = now.Add(*expiry).UTC().Format("2006-01-02T15:04:05Z")
	}
	s.Signature = rest.WellKnown().SignSAS(s)
	fmt.Fprintf(stdout, "http://%s/%s/%s?%s\n", *addr, rest.WellKnownAccount, *table, s.Encode())
	return nil
}
