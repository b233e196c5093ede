/** The query key of the caller's home widgets, shared by the home page and homeCustomization. */
export const homeWidgetsKey = (token: string | null) => ['homeWidgets', token];
