package storetest

import (
	"fmt"
	"strconv"
)

// ScaleEntity is the JSON body of the entity make scale loads (cmd/perf)
// and the store's heap benchmarks measure: ten properties across the Edm
// types, about 340 bytes by the service's size formula; every value varies
// with i.
func ScaleEntity(pk, rk string, i int) []byte {
	return []byte(`{"PartitionKey":"` + pk + `","RowKey":"` + rk + `","Name":"Cust ` + strconv.Itoa(i) +
		`","Email":"c` + strconv.Itoa(i) + `@ex.io","City":"Leeds","Age":` + strconv.Itoa(18+i%60) +
		`,"Balance":` + strconv.Itoa(i%100000) + `.25,"Active":` + strconv.FormatBool(i%2 == 0) +
		`,"Joined@odata.type":"Edm.DateTime","Joined":"2021-06-09T01:17:13.` + fmt.Sprintf("%07d", i%10000000) + `Z"` +
		`,"Visits@odata.type":"Edm.Int64","Visits":"` + strconv.Itoa(9876543210+i) + `"` +
		`,"Id@odata.type":"Edm.Guid","Id":"c9da6455-213d-42c9-9a79-` + fmt.Sprintf("%012d", i) + `"` +
		`,"Notes":"` + []string{"vip", "std", "new"}[i%3] + `"}`)
}
