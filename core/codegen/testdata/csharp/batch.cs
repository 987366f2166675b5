// Runs against the local emulator: `tableplay serve` (or Azurite) on 127.0.0.1:10002.
// dotnet add package Azure.Data.Tables
using System;
using System.Collections.Generic;
using Azure;
using Azure.Data.Tables;

// The emulator's well-known account: replace with your own connection string.
const string connectionString =
    "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;";
var service = new TableServiceClient(connectionString);
var client = service.GetTableClient("Demo");
// The example's table, created first (kept when it exists).
client.CreateIfNotExists();

try
{
    var actions = new List<TableTransactionAction>();
    // Operation 0: insertOrMerge.
    var entity0 = new TableEntity("p1", "b2")
    {
        ["N"] = 21,
        ["Label"] = "row b2",
    };
    actions.Add(new TableTransactionAction(TableTransactionActionType.UpsertMerge, entity0));
    // Operation 1: replace.
    var entity1 = new TableEntity("p1", "r2")
    {
        ["N"] = 20,
        ["Label"] = "row r2",
    };
    actions.Add(new TableTransactionAction(TableTransactionActionType.UpdateReplace, entity1, new ETag("W/\"datetime'2026-11-22T12%3A00%3A00Z'\"")));
    // Operation 2: delete.
    var entity2 = new TableEntity("p1", "r4");
    actions.Add(new TableTransactionAction(TableTransactionActionType.Delete, entity2));
    // All or nothing: one failing operation leaves the table unchanged.
    client.SubmitTransaction(actions);
    Console.WriteLine($"transaction of {actions.Count} operations committed");
}
catch (RequestFailedException e)
{
    Console.Error.WriteLine($"{e.Status} {e.ErrorCode} {e.Message}");
    return 1;
}
return 0;
