// AccessControl module.
