package tableerr

import "net/http"

// Code is a Table service error code such as "EntityAlreadyExists".
type Code string

// The error codes of SPEC §5.2, plus MissingRequiredHeader (D12).
const (
	TableAlreadyExists                      Code = "TableAlreadyExists"
	TableNotFound                           Code = "TableNotFound"
	TableBeingDeleted                       Code = "TableBeingDeleted"
	ResourceNotFound                        Code = "ResourceNotFound"
	EntityNotFound                          Code = "EntityNotFound"
	EntityAlreadyExists                     Code = "EntityAlreadyExists"
	UpdateConditionNotSatisfied             Code = "UpdateConditionNotSatisfied"
	PropertiesNeedValue                     Code = "PropertiesNeedValue"
	InvalidInput                            Code = "InvalidInput"
	OutOfRangeInput                         Code = "OutOfRangeInput"
	InvalidResourceName                     Code = "InvalidResourceName"
	PropertyNameInvalid                     Code = "PropertyNameInvalid"
	PropertyNameTooLong                     Code = "PropertyNameTooLong"
	DuplicatePropertiesSpecified            Code = "DuplicatePropertiesSpecified"
	TooManyProperties                       Code = "TooManyProperties"
	PropertyValueTooLarge                   Code = "PropertyValueTooLarge"
	KeyValueTooLarge                        Code = "KeyValueTooLarge"
	EntityTooLarge                          Code = "EntityTooLarge"
	RequestBodyTooLarge                     Code = "RequestBodyTooLarge"
	InvalidValueType                        Code = "InvalidValueType"
	InvalidDuplicateRow                     Code = "InvalidDuplicateRow"
	CommandsInBatchActOnDifferentPartitions Code = "CommandsInBatchActOnDifferentPartitions"
	XMethodNotUsingPost                     Code = "XMethodNotUsingPost"
	XMethodIncorrectValue                   Code = "XMethodIncorrectValue"
	XMethodIncorrectCount                   Code = "XMethodIncorrectCount"
	JSONFormatNotSupported                  Code = "JsonFormatNotSupported"
	AtomFormatNotSupported                  Code = "AtomFormatNotSupported"
	JSONVerboseFormatNotSupported           Code = "JsonVerboseFormatNotSupported"
	MediaTypeNotSupported                   Code = "MediaTypeNotSupported"
	MethodNotAllowed                        Code = "MethodNotAllowed"
	NotImplemented                          Code = "NotImplemented"
	InvalidHeaderValue                      Code = "InvalidHeaderValue"
	InvalidQueryParameterValue              Code = "InvalidQueryParameterValue"
	MissingRequiredHeader                   Code = "MissingRequiredHeader"
	AuthenticationFailed                    Code = "AuthenticationFailed"
	AuthorizationFailure                    Code = "AuthorizationFailure"
	AuthorizationPermissionMismatch         Code = "AuthorizationPermissionMismatch"
	AuthorizationResourceTypeMismatch       Code = "AuthorizationResourceTypeMismatch"
	InternalError                           Code = "InternalError"
	OperationTimedOut                       Code = "OperationTimedOut"
	ServerBusy                              Code = "ServerBusy"
)

// entry is a code's HTTP status and default message.
type entry struct {
	status  int
	message string
}

// catalogue holds each code's status and the live service's message text
// (SPEC §5.2, from the service's own status table and the live recordings).
// It is read-only.
var catalogue = map[Code]entry{
	TableAlreadyExists:          {http.StatusConflict, "The table specified already exists."},
	TableNotFound:               {http.StatusNotFound, "The table specified does not exist."},
	TableBeingDeleted:           {http.StatusConflict, "The specified table is being deleted. Try operation later."},
	ResourceNotFound:            {http.StatusNotFound, "The specified resource does not exist."},
	EntityNotFound:              {http.StatusNotFound, "The specified entity does not exist."},
	EntityAlreadyExists:         {http.StatusConflict, "The specified entity already exists."},
	UpdateConditionNotSatisfied: {http.StatusPreconditionFailed, "The update condition specified in the request was not satisfied."},
	PropertiesNeedValue:         {http.StatusBadRequest, "The values are not specified for all properties in the entity."},
	InvalidInput:                {http.StatusBadRequest, "One of the request inputs is not valid."},
	OutOfRangeInput:             {http.StatusBadRequest, "One of the request inputs is out of range."},
	// The typo "specifed" is the live service's (recorded 2017 and 2026).
	InvalidResourceName:          {http.StatusBadRequest, "The specifed resource name contains invalid characters."},
	PropertyNameInvalid:          {http.StatusBadRequest, "The property name is invalid."},
	PropertyNameTooLong:          {http.StatusBadRequest, "The property name exceeds the maximum allowed length (255)."},
	DuplicatePropertiesSpecified: {http.StatusBadRequest, "A property is specified more than one time."},
	TooManyProperties:            {http.StatusBadRequest, "The entity contains more properties than allowed. Each entity can include up to 252 properties to store data. Each entity also has 3 system properties."},
	PropertyValueTooLarge:        {http.StatusBadRequest, "The property value exceeds the maximum allowed size (64KB). If the property value is a string, it is UTF-16 encoded and the maximum number of characters should be 32K or less."},
	// SPEC has only the start of this text ("(…)"); the size is the one our
	// key rule (D6) uses. tableplay reports long keys as PropertyValueTooLarge.
	KeyValueTooLarge:                        {http.StatusBadRequest, "The 'PartitionKey' property exceeds the maximum allowed key size (1KB)."},
	EntityTooLarge:                          {http.StatusBadRequest, "The entity is larger than the maximum allowed size (1MB)."},
	RequestBodyTooLarge:                     {http.StatusRequestEntityTooLarge, "The request body is too large and exceeds the maximum permissible limit."},
	InvalidValueType:                        {http.StatusBadRequest, "The value specified is invalid."},
	InvalidDuplicateRow:                     {http.StatusBadRequest, "The batch request contains multiple changes with same row key. An entity can appear only once in a batch request."},
	CommandsInBatchActOnDifferentPartitions: {http.StatusBadRequest, "All commands in a batch must operate on same entity group."},
	XMethodNotUsingPost:                     {http.StatusBadRequest, "The request uses X-HTTP-Method with an HTTP verb other than POST."},
	XMethodIncorrectValue:                   {http.StatusBadRequest, "The specified X-HTTP-Method is invalid."},
	XMethodIncorrectCount:                   {http.StatusBadRequest, "More than one X-HTTP-Method is specified."},
	JSONFormatNotSupported:                  {http.StatusUnsupportedMediaType, "JSON format is not supported."},
	AtomFormatNotSupported:                  {http.StatusUnsupportedMediaType, "Atom format is not supported."},
	JSONVerboseFormatNotSupported:           {http.StatusUnsupportedMediaType, "JSON Verbose format is not supported."},
	// SPEC gives no text for MediaTypeNotSupported; this is the closest
	// documented storage message.
	MediaTypeNotSupported: {http.StatusUnsupportedMediaType, "The specified media type is not supported."},
	MethodNotAllowed:      {http.StatusMethodNotAllowed, "The requested method is not allowed on the specified resource."},
	NotImplemented:        {http.StatusNotImplemented, "The requested operation is not implemented on the specified resource."},
	InvalidHeaderValue:    {http.StatusBadRequest, "The value for one of the HTTP headers is not in the correct format."},
	// SPEC gives no text; this is the common storage service message.
	InvalidQueryParameterValue: {http.StatusBadRequest, "Value for one of the query parameters specified in the request URI is invalid."},
	// D12's text.
	MissingRequiredHeader: {http.StatusBadRequest, "An HTTP header that's mandatory for this request is not specified."},
	AuthenticationFailed:  {http.StatusForbidden, "Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature."},
	// SPEC gives no text for the three authorization codes; these are the
	// storage services' documented messages.
	AuthorizationFailure:              {http.StatusForbidden, "This request is not authorized to perform this operation."},
	AuthorizationPermissionMismatch:   {http.StatusForbidden, "This request is not authorized to perform this operation using this permission."},
	AuthorizationResourceTypeMismatch: {http.StatusForbidden, "This request is not authorized to perform this operation using this resource type."},
	InternalError:                     {http.StatusInternalServerError, "The server encountered an internal error. Please retry the request."},
	OperationTimedOut:                 {http.StatusInternalServerError, "Operation could not be completed within the specified time."},
	ServerBusy:                        {http.StatusServiceUnavailable, "The server is busy."},
}

// Codes lists every code of the catalogue, for tests and documentation.
func Codes() []Code {
	out := make([]Code, 0, len(catalogue))
	for c := range catalogue {
		out = append(out, c)
	}
	return out
}

// Status returns the code's HTTP status (500 for a code not in the catalogue).
func (c Code) Status() int {
	if e, ok := catalogue[c]; ok {
		return e.status
	}
	return http.StatusInternalServerError
}

// Message returns the code's default message text.
func (c Code) Message() string { return catalogue[c].message }
