// Package tablecsv reads and writes entities in Azure Storage Explorer's
// CSV layout: a header of PartitionKey, RowKey, Timestamp and, per property,
// a value column "Name" followed by a type column "Name@type", each row an
// entity with its values written as their text and their Edm type beside
// them, so that Int64 and 100 ns DateTimes survive the round trip.
package tablecsv
