package profile

// Azurite337 is Azurite 3.37's table service, as a script records its
// answers. It is filled in by the azurite-3.37 work and is not offered by
// ByName until then.
func Azurite337() Profile {
	return Profile{Name: "azurite-3.37", Title: "Azurite 3.37"}
}
