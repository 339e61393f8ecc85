import { useContext } from 'react';
// antd's App.useApp() reads this context; importing App for it would bring App's Modal and Skeleton (0036).
import AppContext from 'antd/es/app/context';

/** App.useApp() without antd's App module: themed message and notification (and modal past sign-in). */
export const useAppPopups = () => useContext(AppContext);
