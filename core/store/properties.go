package store

import (
	"fmt"

	"github.com/tableplay/tableplay/core/tableerr"
)

// ServiceProperties are the account's table service settings (the service-properties XML):
// analytics logging, hour and minute metrics, and CORS rules.
type ServiceProperties struct {
	// Logging is the analytics logging setting.
	Logging Logging `json:"logging"`
	// HourMetrics is the hourly metrics setting.
	HourMetrics Metrics `json:"hourMetrics"`
	// MinuteMetrics is the per-minute metrics setting.
	MinuteMetrics Metrics `json:"minuteMetrics"`
	// Cors are the CORS rules, within the service's limits (MaxCorsRules
	// and the others), in the order given.
	Cors []CorsRule `json:"cors"`
}

// Logging is the analytics logging setting.
type Logging struct {
	// Version is the logging format version, "1.0" by default.
	Version string `json:"version"`
	// Read says read requests are logged.
	Read bool `json:"read"`
	// Write says write requests are logged.
	Write bool `json:"write"`
	// Delete says delete requests are logged.
	Delete bool `json:"delete"`
	// RetentionEnabled says logs are deleted after RetentionDays.
	RetentionEnabled bool `json:"retentionEnabled"`
	// RetentionDays is how long logs are kept, 1 to 365 when enabled.
	RetentionDays int `json:"retentionDays"`
}

// Metrics is an hour or minute metrics setting.
type Metrics struct {
	// Version is the metrics version, "1.0" by default.
	Version string `json:"version"`
	// Enabled says the metrics are collected.
	Enabled     bool  `json:"enabled"`
	IncludeAPIs *bool `json:"includeAPIs,omitempty"` // only meaningful when Enabled
	// RetentionEnabled says metrics are deleted after RetentionDays.
	RetentionEnabled bool `json:"retentionEnabled"`
	// RetentionDays is how long metrics are kept, 1 to 365 when enabled.
	RetentionDays int `json:"retentionDays"`
}

// CorsRule is one CORS rule. Lists are kept as the comma-separated text the
// service stores.
type CorsRule struct {
	// AllowedOrigins are the origins allowed, or "*".
	AllowedOrigins string `json:"allowedOrigins"`
	// AllowedMethods are the HTTP methods allowed.
	AllowedMethods string `json:"allowedMethods"`
	// AllowedHeaders are the request headers a preflight may ask for.
	AllowedHeaders string `json:"allowedHeaders"`
	// ExposedHeaders are the response headers the browser may show.
	ExposedHeaders string `json:"exposedHeaders"`
	// MaxAgeInSeconds is how long a browser may cache the preflight answer.
	MaxAgeInSeconds int `json:"maxAgeInSeconds"`
	// parsed are the lists read when the store took the rule; nil for a
	// rule built elsewhere.
	parsed *corsLists
}

// defaultProperties are a new storage account's settings
// (F-DEFAULT-PROPERTIES): hour metrics on, API-level included, kept 7 days;
// minute metrics and logging off; no CORS rules.
func defaultProperties() ServiceProperties {
	apis := true
	return ServiceProperties{
		Logging:       Logging{Version: "1.0"},
		HourMetrics:   Metrics{Version: "1.0", Enabled: true, IncludeAPIs: &apis, RetentionEnabled: true, RetentionDays: 7},
		MinuteMetrics: Metrics{Version: "1.0"},
	}
}

// check applies the rules settings read from a log or a document were
// written under (an earlier build's CORS rules may pass today's limits),
// and returns them with their CORS lists read.
func (p ServiceProperties) check() (ServiceProperties, error) {
	days := func(enabled bool, n int) bool { return !enabled || n >= 1 && n <= 365 }
	if !days(p.Logging.RetentionEnabled, p.Logging.RetentionDays) || !days(p.HourMetrics.RetentionEnabled, p.HourMetrics.RetentionDays) ||
		!days(p.MinuteMetrics.RetentionEnabled, p.MinuteMetrics.RetentionDays) {
		return p, fmt.Errorf("a retention outside 1 to 365 days")
	}
	rules, err := checkCors(p.Cors, false)
	if err != nil {
		return p, err
	}
	p.Cors = rules
	return p, nil
}

// Properties returns the account's service properties.
func (s *Store) Properties() ServiceProperties {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.props
	p.Cors = append([]CorsRule(nil), s.props.Cors...)
	return p
}

// SetProperties replaces the account's service properties (the REST layer
// merges a partial request into the current ones first). CORS rules beyond
// the service's limits are refused with its error (F-CORS-LIMITS);
// otherwise it fails only when the change cannot be made durable.
func (s *Store) SetProperties(p ServiceProperties) *tableerr.Error {
	rules, err := checkCors(p.Cors, true)
	if err != nil {
		return tableerr.New(err.code)
	}
	p.Cors = rules
	if err := s.writable(); err != nil {
		return err
	}
	if err := s.durable(s.setProperties(p, true)); err != nil {
		return err
	}
	s.changed()
	return nil
}

// setProperties installs settings already checked (their CORS lists read);
// journal records the change (Redo, which replays a record, must not record
// it again).
func (s *Store) setProperties(p ServiceProperties, journal bool) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.props = p
	if !journal {
		return 0
	}
	return s.record(func() change { return change{Op: opProperties, Properties: &p} })
}
