package dialect

import (
	"github.com/tableplay/tableplay/core/edm"
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/op"
	"github.com/tableplay/tableplay/core/profile"
)

// Common is the header fields every answer carries (F-HEADERS); an empty
// value is a field left out.
type Common struct {
	// CacheControl, Server and NoSniff are the values of Cache-Control,
	// Server and X-Content-Type-Options.
	CacheControl, Server, NoSniff string
	// Version, when set, is the x-ms-version of every answer whatever the
	// request asked; NoVersion leaves the field out.
	Version   string
	NoVersion bool
}

func commonOf(p *profile.Profile) Common {
	switch em := &p.Emulator; {
	case p.Headers == profile.CosmosHeaders:
		// The Cosmos gateway writes neither Cache-Control nor
		// X-Content-Type-Options nor x-ms-version (F-COSMOS-HEADERS).
		return Common{Server: "Microsoft-HTTPAPI/2.0", NoVersion: true}
	case em.Server != "":
		// Azurite names itself, answers its own version whatever was
		// asked, and writes neither Cache-Control nor
		// X-Content-Type-Options (F-AZURITE-SERVER, F-AZURITE-VERSION,
		// F-AZURITE-BARE-HEADERS).
		return Common{Server: em.Server, Version: em.AnswerVersion}
	}
	return Common{CacheControl: "no-cache", Server: "Windows-Azure-Table/1.0 Microsoft-HTTPAPI/2.0", NoSniff: "nosniff"}
}

// Common is the header fields every answer carries.
func (d *Dialect) Common() *Common { return &d.common }

// ContentType is the Content-Type of a JSON body at level l: Storage's
// with its streaming and charset parameters, or the Cosmos gateway's and
// Azurite's bare one (F-COSMOS-HEADERS, F-AZURITE-CONTENT-TYPE).
func (d *Dialect) ContentType(l odata.Level) string {
	if d.p.Headers == profile.CosmosHeaders || d.em.PlainContentType {
		return "application/json;odata=" + l.String()
	}
	return l.ContentType()
}

// NoContentType is the Content-Type of a 204 answering kind k, "" for
// none: the Cosmos gateway types every one (F-COSMOS-HEADERS), Azurite
// those of create table, delete table and insert (F-AZURITE-CONTENT-TYPE).
func (d *Dialect) NoContentType(k op.Kind, l odata.Level) string {
	switch {
	case d.p.Headers == profile.CosmosHeaders:
		return "application/json"
	case d.em.PlainContentType && (k == op.CreateTable || k == op.DeleteTable || k == op.Insert):
		return d.ContentType(l)
	}
	return ""
}

// Location says whether create table and insert answer with Location and
// DataServiceId (F-AZURITE-NO-LOCATION).
func (d *Dialect) Location() bool { return !d.em.NoLocation }

// TableETag is the ETag of a new table, "" for none: the Cosmos gateway
// gives a table one (F-COSMOS-HEADERS).
func (d *Dialect) TableETag(now edm.Ticks) string {
	if d.p.Headers != profile.CosmosHeaders {
		return ""
	}
	return odata.ETagIn(d.p.Bodies, now)
}

// TableReadIsList says a read of one table answers an empty list
// (F-AZURITE-GET-TABLE).
func (d *Dialect) TableReadIsList() bool { return d.em.TableReadIsList }

// ETag is an entity's ETag in the implementation's form.
func (d *Dialect) ETag(t edm.Ticks) string {
	if d.em.FixedTimestamp { // F-AZURITE-TIMESTAMP
		return odata.ETag7(t)
	}
	return odata.ETagIn(d.p.Bodies, t)
}

// StorageETag says ETags have the service's own form (odata.AppendETag's).
func (d *Dialect) StorageETag() bool {
	return d.p.Bodies != profile.CosmosBodies && !d.em.FixedTimestamp
}

// HonoursPrefer reports whether an operation the kinds table says honours
// Prefer does here: Azurite ignores it on updates, merges and upserts
// (F-AZURITE-PREFER-UPDATE).
func (d *Dialect) HonoursPrefer(k op.Kind) bool {
	return !d.em.UpdatesIgnorePrefer || k == op.CreateTable || k == op.Insert
}

// Applied is the Preference-Applied of an operation of kind k that honours
// Prefer, given the one the request asked for: Azurite answers
// return-content to a create table or insert that sent none
// (F-AZURITE-PREFER-ECHO).
func (d *Dialect) Applied(k op.Kind, asked string) string {
	if asked == "" && d.em.AlwaysPreference && (k == op.CreateTable || k == op.Insert) {
		return "return-content"
	}
	return asked
}
