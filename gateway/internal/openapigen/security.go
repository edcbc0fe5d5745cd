package openapigen

import "github.com/getkin/kin-openapi/openapi3"

// bearerScheme is the name of the one security scheme.
const bearerScheme = "bearer"

// applySecurity declares the bearer token scheme and requires it on every
// operation whose RPC needs a token; the others (health, sign-in) say
// explicitly that they need none.
func applySecurity(doc *openapi3.T, ops []operation) {
	doc.Components.SecuritySchemes = openapi3.SecuritySchemes{
		bearerScheme: &openapi3.SecuritySchemeRef{Value: &openapi3.SecurityScheme{
			Type:   "http",
			Scheme: "bearer",
			Description: "`Authorization: Bearer <token>`. Tokens are issued by an admin (POST /v1/admin/developers) " +
				"and look like `mdc_` followed by 43 URL-safe base64 characters. Admin routes need an admin token; " +
				"an admin token is accepted wherever a developer token is.",
		}},
	}
	doc.Security = nil
	for _, o := range ops {
		reqs := openapi3.NewSecurityRequirements()
		if o.contract.access != public {
			reqs.With(openapi3.NewSecurityRequirement().Authenticate(bearerScheme))
		}
		o.op.Security = reqs
	}
}
