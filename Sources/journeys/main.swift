print("journeys")
