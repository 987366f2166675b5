package store

import "github.com/tableplay/tableplay/core/tableerr"

// ServiceProperties are the account's table service settings (the service-properties XML):
// analytics logging, hour and minute metrics, and CORS rules.
type ServiceProperties struct {
	Logging       Logging    `json:"logging"`
	HourMetrics   Metrics    `json:"hourMetrics"`
	MinuteMetrics Metrics    `json:"minuteMetrics"`
	Cors          []CorsRule `json:"cors"`
}

// Logging is the analytics logging setting.
type Logging struct {
	Version          string `json:"version"`
	Read             bool   `json:"read"`
	Write            bool   `json:"write"`
	Delete           bool   `json:"delete"`
	RetentionEnabled bool   `json:"retentionEnabled"`
	RetentionDays    int    `json:"retentionDays"`
}

// Metrics is an hour or minute metrics setting.
type Metrics struct {
	Version          string `json:"version"`
	Enabled          bool   `json:"enabled"`
	IncludeAPIs      *bool  `json:"includeAPIs,omitempty"` // only meaningful when Enabled
	RetentionEnabled bool   `json:"retentionEnabled"`
	RetentionDays    int    `json:"retentionDays"`
}

// CorsRule is one CORS rule. Lists are kept as the comma-separated text the
// service stores.
type CorsRule struct {
	AllowedOrigins  string `json:"allowedOrigins"`
	AllowedMethods  string `json:"allowedMethods"`
	AllowedHeaders  string `json:"allowedHeaders"`
	ExposedHeaders  string `json:"exposedHeaders"`
	MaxAgeInSeconds int    `json:"maxAgeInSeconds"`
}

// MaxCorsRules is the most CORS rules a service holds.
const MaxCorsRules = 5

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

// valid checks settings read from a snapshot the way Set Service Properties
// checks them.
func (p ServiceProperties) valid() bool {
	days := func(enabled bool, n int) bool { return !enabled || n >= 1 && n <= 365 }
	if len(p.Cors) > MaxCorsRules || !days(p.Logging.RetentionEnabled, p.Logging.RetentionDays) ||
		!days(p.HourMetrics.RetentionEnabled, p.HourMetrics.RetentionDays) || !days(p.MinuteMetrics.RetentionEnabled, p.MinuteMetrics.RetentionDays) {
		return false
	}
	for _, r := range p.Cors {
		if r.AllowedOrigins == "" || r.AllowedMethods == "" || r.MaxAgeInSeconds < 0 {
			return false
		}
	}
	return true
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
// merges a partial request into the current ones first). It fails only when
// the change cannot be made durable.
func (s *Store) SetProperties(p ServiceProperties) *tableerr.Error {
	if err := s.durable(s.setProperties(p)); err != nil {
		return err
	}
	s.changed()
	return nil
}

func (s *Store) setProperties(p ServiceProperties) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	p.Cors = append([]CorsRule(nil), p.Cors...)
	s.props = p
	return s.record(func() change { return change{Op: opProperties, Properties: &p} })
}
