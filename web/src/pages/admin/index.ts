// The admin pages, one chunk loaded the first time an admin opens one.
export { DataPage } from "./DataPage";
export { DevelopersPage } from "./DevelopersPage";
export { HolidaysPage } from "./HolidaysPage";
export { ScriptsPage } from "./ScriptsPage";
