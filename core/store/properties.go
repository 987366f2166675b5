package store

// ServiceProperties are the account's table service settings (SPEC §10):
// analytics logging, hour and minute metrics, and CORS rules.
type ServiceProperties struct {
	Logging       Logging
	HourMetrics   Metrics
	MinuteMetrics Metrics
	Cors          []CorsRule
}

// Logging is the analytics logging setting.
type Logging struct {
	Version             string
	Read, Write, Delete bool
	RetentionEnabled    bool
	RetentionDays       int
}

// Metrics is an hour or minute metrics setting.
type Metrics struct {
	Version          string
	Enabled          bool
	IncludeAPIs      *bool // only meaningful when Enabled
	RetentionEnabled bool
	RetentionDays    int
}

// CorsRule is one CORS rule. Lists are kept as the comma-separated text the
// service stores.
type CorsRule struct {
	AllowedOrigins  string
	AllowedMethods  string
	AllowedHeaders  string
	ExposedHeaders  string
	MaxAgeInSeconds int
}

// MaxCorsRules is the most CORS rules a service holds.
const MaxCorsRules = 5

// defaultProperties are a new account's settings: everything off.
func defaultProperties() ServiceProperties {
	return ServiceProperties{
		Logging:       Logging{Version: "1.0"},
		HourMetrics:   Metrics{Version: "1.0"},
		MinuteMetrics: Metrics{Version: "1.0"},
	}
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
// merges a partial request into the current ones first).
func (s *Store) SetProperties(p ServiceProperties) {
	s.mu.Lock()
	p.Cors = append([]CorsRule(nil), p.Cors...)
	s.props = p
	s.mu.Unlock()
	s.changed()
}
