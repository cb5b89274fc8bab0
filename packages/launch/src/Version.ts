/** The release every package of this repository shares (checked against package.json by its test). */
export const version = "0.1.0"
