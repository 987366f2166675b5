module github.com/tableplay/tableplay

go 1.26.8

require (
	github.com/tidwall/btree v1.8.1
	github.com/tidwall/gjson v1.18.0
)

require (
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.2.0 // indirect
)
