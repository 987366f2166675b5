package dialect

import (
	"github.com/tableplay/tableplay/core/odata"
	"github.com/tableplay/tableplay/core/profile"
)

// Dialect is how one implementation of the Table API answers where it
// differs from Azure Table Storage.
type Dialect struct {
	p  profile.Profile
	em *profile.Emulator
	// common is the header fields every answer carries.
	common Common
}

// New returns the dialect of a profile.
func New(p profile.Profile) *Dialect {
	d := &Dialect{p: p, em: &p.Emulator}
	d.common = commonOf(&d.p)
	return d
}

// Body sets the fields of an encoding context that shape JSON bodies: the
// body style and the emulator's body forms, when it has any.
func (d *Dialect) Body(c *odata.Context) *odata.Context {
	c.Style = d.p.Bodies
	if d.em.BodyForms() {
		c.Emulator = d.em
	}
	return c
}

// TableNames is the rule a table name meets.
func (d *Dialect) TableNames() profile.TableNameRule { return d.p.TableNames }
